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

With DMLDIFF_TRIGGERS set, table t has a trigger for each event and
time, writing what it sees to table log (BEFORE triggers also change
some values, and an AFTER DELETE trigger refuses to delete a row with
c = 9999.99). The log is compared as well: the messages of a statement
whose rows come in a stated order (VALUES, ORDER BY) in their order,
the others' as a set.

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
TRIGGERS = bool(os.environ.get("DMLDIFF_TRIGGERS"))
if TRIGGERS:
    def _seen(who, row):
        cols = ", ' ', ".join(f"IFNULL({row}.{c}, '-')" for c in ("id", "a", "b", "c"))
        return f"INSERT INTO dz.log (m) VALUES (CONCAT('{who} ', {cols}))"
    SETUP += [
        "CREATE TABLE dz.log (n INT PRIMARY KEY AUTO_INCREMENT, m VARCHAR(200))",
        f"CREATE TRIGGER dz.bi BEFORE INSERT ON dz.t FOR EACH ROW BEGIN {_seen('bi', 'NEW')}; "
        "IF NEW.a = 7 THEN SET NEW.a = 70; END IF; END",
        f"CREATE TRIGGER dz.ai AFTER INSERT ON dz.t FOR EACH ROW {_seen('ai', 'NEW')}",
        f"CREATE TRIGGER dz.bu BEFORE UPDATE ON dz.t FOR EACH ROW BEGIN {_seen('bu', 'OLD')}; "
        "IF NEW.c > 1000 THEN SET NEW.c = 1000; END IF; END",
        f"CREATE TRIGGER dz.au AFTER UPDATE ON dz.t FOR EACH ROW BEGIN {_seen('au-old', 'OLD')}; {_seen('au-new', 'NEW')}; END",
        f"CREATE TRIGGER dz.bd BEFORE DELETE ON dz.t FOR EACH ROW {_seen('bd', 'OLD')}",
        f"CREATE TRIGGER dz.ad AFTER DELETE ON dz.t FOR EACH ROW BEGIN {_seen('ad', 'OLD')}; "
        "IF OLD.c = 9999.99 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'kept'; END IF; END",
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
    """A random statement, and whether the rows it writes come in a stated
    order."""
    q = any_statement()
    while TRIGGERS and q.startswith("UPDATE IGNORE dz.t "):
        # MySQL 8 runs no AFTER UPDATE trigger for a row UPDATE IGNORE
        # passes over (its update failed); MariaDB runs it.
        q = any_statement()
    ordered = q.startswith(("INSERT INTO dz.t VALUES", "INSERT IGNORE INTO dz.t VALUES", "REPLACE INTO dz.t VALUES")) or (
        q.startswith(("UPDATE dz.t ", "UPDATE IGNORE dz.t ", "DELETE FROM dz.t WHERE")) and " ORDER BY " in q)
    return q, ordered


def any_statement():
    table = pick(list(TABLES))
    k = rng.randrange(14)
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
    if k == 11:
        # A DELETE naming its tables: t's rows, the other one's, or
        # both. (MariaDB refuses an alias there without a current
        # database.)
        other = pick(["n", "k"])
        targets = pick(["dz.t", f"dz.{other}", f"dz.t, dz.{other}"])
        return (f"DELETE {targets} FROM dz.t JOIN dz.{other} ON dz.t.a = dz.{other}.a"
                f" WHERE {pick([f'dz.{other}.a > 1', 'dz.t.id > 2', f'dz.{other}.b IS NOT NULL'])}")
    if k == 12:
        # An upsert or REPLACE from a SELECT, of its own table or another,
        # reading VALUES().
        src = pick(["SELECT id + 1, a, b, c FROM dz.t", "SELECT id, a, CONCAT(b, '2'), c FROM dz.t",
                    # Not n's id: its gaps are the engine's.
                    "SELECT IFNULL(a, 0) + 40, a + 1, b, 2.5 FROM dz.n"])
        # In key order: rows that meet the same row of t update it in
        # turn. Columns of t named in full: a is the SELECT's too (1052).
        where = f" WHERE {cond('t' if 'dz.t' in src else 'n')} ORDER BY id"
        if rng.random() < 0.3:
            return f"REPLACE INTO dz.t {src}{where}"
        sets = pick(["a = VALUES(a)", "c = VALUES(c) + 1", "b = VALUES(b), a = dz.t.a + 1", "a = VALUES(a) + dz.t.a"])
        return f"INSERT INTO dz.t {src}{where} ON DUPLICATE KEY UPDATE {sets}"
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
    if TRIGGERS:
        cur.execute("SELECT m FROM dz.log")
        out["log"] = sorted(r[0] for r in cur.fetchall())
    return out


def last_logged(cur):
    if not TRIGGERS:
        return 0
    cur.execute("SELECT IFNULL(MAX(n), 0) FROM dz.log")
    return cur.fetchone()[0]


def logged_since(cur, n):
    """The messages the triggers wrote after message n, in their order."""
    if not TRIGGERS:
        return []
    cur.execute(f"SELECT m FROM dz.log WHERE n > {n} ORDER BY n")
    return [r[0] for r in cur.fetchall()]


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
        q, ordered = statement()
        since.append(q)
        marks = [last_logged(c.cursor()) for c in conns]
        outcomes = [run(c.cursor(), q) for c in conns]
        states = [contents(c.cursor()) for c in conns]
        logs = [logged_since(c.cursor(), m) for c, m in zip(conns, marks)]
        if not ordered:
            logs = [sorted(x) for x in logs]
        if outcomes[0] != outcomes[1] or states[0] != states[1] or logs[0] != logs[1]:
            diffs += 1
            print(f"DIFF {q}")
            print(f"  sqlearn: {outcomes[0]}")
            print(f"  mariadb: {outcomes[1]}")
            if logs[0] != logs[1]:
                print(f"  log sqlearn: {logs[0]}")
                print(f"  log mariadb: {logs[1]}")
            for table in states[0]:
                if states[0][table] != states[1][table]:
                    print(f"  {table} sqlearn: {states[0][table]}")
                    print(f"  {table} mariadb: {states[1][table]}")
            if os.environ.get("DMLDIFF_TRACE"):
                print("  after: " + ";\n         ".join(since[:-1]))
            since = []
            setup(conns)
    print(f"{diffs} differences in {N}")


main()
