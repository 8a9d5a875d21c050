"""Differential check of writes: random INSERT, REPLACE, UPDATE and DELETE
statements (IGNORE, ON DUPLICATE KEY UPDATE, ORDER BY ... LIMIT, INSERT ...
SELECT, transactions rolled back or committed) run in the same order on
sqlearn and on MariaDB, comparing after each one its outcome (the error
code, or the rows it affected) and then every row of the tables. A
statement whose outcome or tables differ is printed with both sides; the
tables are then set up again on both, so one difference does not hide the
next.

Left out, as places where MySQL and MariaDB differ or where MySQL leaves
the answer to the engine: auto-increment values (table n is compared
without its id, whose gaps after a failed statement are the engine's),
text compared with a number in WHERE (an error in MySQL's strict mode,
a warning in MariaDB), and updates of several rows in no stated order.

Usage: dmldiff.py SQLEARN_PORT MARIADB_PORT [COUNT [SEED]]; with
DMLDIFF_TRACE set, each difference is followed by the statements that
led to it.
"""

import os

import pymysql

from cases import connections_and_cases

SQ, MD, N, rng = connections_and_cases()

SETUP = [
    "DROP DATABASE IF EXISTS dz",
    "CREATE DATABASE dz",
    "CREATE TABLE dz.t (id INT PRIMARY KEY, a INT, b VARCHAR(6), c DECIMAL(6,2) NOT NULL DEFAULT 1.50, UNIQUE KEY ub (b))",
    "CREATE TABLE dz.k (a INT, b CHAR(6))",
    "CREATE TABLE dz.n (id INT PRIMARY KEY AUTO_INCREMENT, a INT NOT NULL, b VARCHAR(6) DEFAULT 'd')",
    "INSERT INTO dz.t VALUES (1, 10, 'x', 1.00), (2, 20, 'y', 2.00), (3, NULL, NULL, 3.00), (5, 50, 'z', 5.55)",
    "INSERT INTO dz.k VALUES (1, 'p'), (1, 'p'), (2, NULL), (NULL, 'q')",
    "INSERT INTO dz.n (a) VALUES (1), (2), (3)",
]
TABLES = {"t": "id", "k": "a, b", "n": "id"}
SHOWN = {"t": "*", "k": "*", "n": "a, b"}

IDS = ["1", "2", "3", "4", "5", "6", "NULL", "-1"]
INTS = ["0", "1", "7", "20", "50", "NULL", "-3", "2147483647", "'5'", "'x'", "2.5"]
NUMS = ["0", "1", "7", "20", "50", "NULL", "-3", "2147483647", "2.5"]
STRS = ["'x'", "'y'", "'z'", "'w'", "NULL", "''", "'long-text'", "'X'", "3"]
# Stored in k's CHAR column, which keeps no trailing spaces; never compared
# with (the collations pad differently).
PADDED = STRS + ["'x '", "'p  '", "' '"]
DECS = ["1.5", "0", "-2.25", "9999.99", "10000", "NULL", "'1.239'", "1e3"]


def pick(xs):
    return rng.choice(xs)


def cond(table):
    col = {"t": ["id", "a", "b", "c"], "k": ["a", "b"], "n": ["a", "b"]}[table]
    c = pick(col)
    op = pick(["=", "<", ">", "<=", "IS NULL", "IS NOT NULL", "IN", "<>"])
    if op in ("IS NULL", "IS NOT NULL"):
        return f"{c} {op}"
    if c == "b":
        v, w = pick(STRS[:-1]), pick(STRS[:-1])
    else:
        v, w = pick(NUMS), pick(NUMS)
    if op == "IN":
        return f"{c} IN ({v}, {w})"
    return f"{c} {op} {v}"


def row(table):
    if table == "t":
        return f"({pick(IDS)}, {pick(INTS)}, {pick(STRS)}, {pick(DECS)})"
    if table == "k":
        return f"({pick(INTS)}, {pick(PADDED)})"
    return f"({pick(INTS)}, {pick(STRS)})"


def columns(table):
    return {"t": "", "k": "", "n": " (a, b)"}[table]


def assignment(table):
    if table == "t":
        return pick(["a = a + 1", "b = " + pick(STRS), "c = c * 2", "a = " + pick(INTS), "c = " + pick(DECS),
                     "id = id + 10", "a = NULL", "b = CONCAT(b, '!')"])
    if table == "k":
        return pick(["a = a + 1", "b = " + pick(PADDED), "a = NULL", "b = CONCAT(b, ' ')"])
    return pick(["a = a + 1", "b = " + pick(STRS), "a = " + pick(INTS)])


def statement():
    table = pick(list(TABLES))
    k = rng.randrange(12)
    rows = ", ".join(row(table) for _ in range(rng.randrange(1, 4)))
    if k == 0:
        return f"INSERT INTO dz.{table}{columns(table)} VALUES {rows}"
    if k == 1:
        return f"INSERT IGNORE INTO dz.{table}{columns(table)} VALUES {rows}"
    if k == 2:
        return f"INSERT INTO dz.{table}{columns(table)} VALUES {rows} ON DUPLICATE KEY UPDATE {assignment(table)}"
    if k == 3:
        return f"REPLACE INTO dz.{table}{columns(table)} VALUES {rows}"
    if k == 4:
        limit = pick(["", f" LIMIT {rng.randrange(0, 3)}"])
        return f"UPDATE dz.{table} SET {assignment(table)} WHERE {cond(table)} ORDER BY {TABLES[table]}{limit}"
    if k == 5:
        limit = pick(["", f" ORDER BY {TABLES[table]} DESC LIMIT {rng.randrange(0, 3)}"])
        return f"DELETE FROM dz.{table} WHERE {cond(table)}{limit}"
    if k == 6:
        ignore = pick(["", "IGNORE "])
        return f"INSERT {ignore}INTO dz.k SELECT a, b FROM dz.{pick(['t', 'n'])} WHERE {cond('n')}"
    if k == 7:
        return f"UPDATE {pick(['IGNORE ', ''])}dz.{table} SET {assignment(table)}, {assignment(table)} WHERE {cond(table)} ORDER BY {TABLES[table]}"
    if k == 8:
        return f"INSERT {pick(['IGNORE ', ''])}INTO dz.t SELECT id + {pick(['10', '20'])}, a, CONCAT(b, '2'), c FROM dz.t WHERE {cond('t')}"
    if k == 9:
        return f"DELETE FROM dz.t WHERE id IN (SELECT a FROM dz.k WHERE {cond('k')})"
    if k == 10:
        # Either table, or both, t with a primary key, k without one.
        sets = pick([f"dz.t.c = dz.t.c + 1, dz.t.b = {pick(STRS[:-1])}", f"j.b = {pick(STRS[:-1])}",
                     "dz.t.c = dz.t.c + 1, j.b = CONCAT(j.b, '!')", "j.a = j.a + 1"])
        return f"UPDATE dz.t JOIN dz.{pick(['k', 'n'])} AS j ON dz.t.a = j.a SET {sets} WHERE j.a IS NOT NULL"
    return pick(["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT s", "ROLLBACK TO SAVEPOINT s"])


def run(cur, q):
    try:
        n = cur.execute(q)
        return ("ok", n)
    except pymysql.err.MySQLError as e:
        return ("error", e.args[0])


def contents(cur):
    out = {}
    for table, order in TABLES.items():
        cur.execute(f"SELECT {SHOWN[table]} FROM dz.{table} ORDER BY {order}")
        # Sorted again here: rows the collation holds equal ('x', 'X')
        # come in either order.
        out[table] = sorted(tuple(str(v) for v in r) for r in cur.fetchall())
    return out


def setup(conns):
    for c in conns:
        cur = c.cursor()
        cur.execute("ROLLBACK")
        for q in SETUP:
            cur.execute(q)


def main():
    conns = [pymysql.connect(**SQ, autocommit=True), pymysql.connect(**MD, autocommit=True)]
    setup(conns)
    diffs = 0
    since = []  # the statements since the tables were last set up
    for _ in range(N):
        q = statement()
        since.append(q)
        outcomes = [run(c.cursor(), q) for c in conns]
        states = [contents(c.cursor()) for c in conns]
        if outcomes[0] != outcomes[1] or states[0] != states[1]:
            diffs += 1
            print(f"DIFF {q}")
            print(f"  sqlearn: {outcomes[0]}")
            print(f"  mariadb: {outcomes[1]}")
            for table in TABLES:
                if states[0][table] != states[1][table]:
                    print(f"  {table} sqlearn: {states[0][table]}")
                    print(f"  {table} mariadb: {states[1][table]}")
            if os.environ.get("DMLDIFF_TRACE"):
                print("  after: " + ";\n         ".join(since[:-1]))
            since = []
            setup(conns)
    print(f"{diffs} differences in {N}")


main()
