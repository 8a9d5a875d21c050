"""Differential check of queries: random SELECTs (point and range reads
through primary and secondary indexes, joins, GROUP BY with HAVING,
subqueries, DISTINCT, set operations, window functions, derived tables
and common table expressions, ORDER BY ... LIMIT) over the same random
tables on sqlearn and on MariaDB, comparing each query's outcome: an
error on one side only, or the rows (in order when the query's ORDER BY
fixes it, as a multiset otherwise; floats to 10 significant digits).

Left out, as places where MySQL and MariaDB differ or where MySQL leaves
the answer to the engine: columns neither grouped nor aggregated, text
with punctuation, trailing spaces or accents (MariaDB's default
collation orders, pads and folds them differently), which of the rows equal under the collation
('ab', 'Ab') names a group, the order of rows an ORDER BY leaves tied,
and an indexed integer column compared with a fractional number (which
MariaDB finds equal to 2.5 in some rows).

With an odd seed the tables are optimized after they are filled, so that
sqlearn reads their rows from Arrow batches rather than from its
partitions' tails.

With QUERYDIFF_EMPTY set to a list of the tables (a,b,c,e), those
tables are left empty (filled, then emptied), where aggregates without
GROUP BY still answer a row and joins and subqueries meet no rows.

Usage: querydiff.py SQLEARN_PORT MARIADB_PORT [COUNT [SEED]]
"""

import decimal
import os

import pymysql

from cases import connections_and_cases, seed

SQ, MD, N, rng = connections_and_cases()

LIKES = ["a%", "%b", "a\\\\%", "_", "x%", "A%", "%c", "a_c", "%\\\\_%"]
# No punctuation: MariaDB's default collation orders it by code point,
# MySQL's by the Unicode collation algorithm (where '_' sorts before 'b').
WORDS = ["ab", "Ab", "abc", "aBc", "b", "ba", "x", "X", "xy", "", "zz", "B"]


def pick(xs):
    return rng.choice(xs)


def maybe_null(v, p=0.15):
    return "NULL" if rng.random() < p else v


def text(v):
    return "'" + v + "'"


def setup_statements():
    """The tables, filled from the seed: a has a primary key and
    secondary indexes (one of two columns), b refers to a by aid, c has a
    text primary key and e has no key."""
    out = [
        "DROP DATABASE IF EXISTS qz",
        "CREATE DATABASE qz",
        "CREATE TABLE qz.a (id INT PRIMARY KEY, g INT, x INT, s VARCHAR(10), d DECIMAL(6,2), dt DATE,"
        " KEY ig (g), KEY igx (g, x), KEY is_ (s), KEY idt (dt))",
        "CREATE TABLE qz.b (id INT PRIMARY KEY, aid INT, v INT, t VARCHAR(10), KEY iaid (aid), KEY iv (v))",
        "CREATE TABLE qz.c (k VARCHAR(8) PRIMARY KEY, n INT, f DOUBLE)",
        "CREATE TABLE qz.e (p INT, q INT)",
    ]
    rows = []
    for i in range(1, 41):
        rows.append(
            f"({i}, {maybe_null(str(rng.randrange(5)))}, {maybe_null(str(rng.randrange(-20, 100)))}, "
            f"{maybe_null(text(pick(WORDS)))}, {maybe_null(str(decimal.Decimal(rng.randrange(-5000, 5000)) / 100))}, "
            f"{maybe_null(text(f'2024-0{rng.randrange(1, 10)}-1{rng.randrange(10)}'))})"
        )
    out.append("INSERT INTO qz.a VALUES " + ", ".join(rows))
    rows = []
    for i in range(1, 61):
        rows.append(
            f"({i}, {maybe_null(str(rng.randrange(0, 45)))}, {maybe_null(str(rng.randrange(10)))}, "
            f"{maybe_null(text(pick(WORDS)))})"
        )
    out.append("INSERT INTO qz.b VALUES " + ", ".join(rows))
    keys = sorted({"k" + str(rng.randrange(100)) for _ in range(25)})
    out.append("INSERT INTO qz.c VALUES " + ", ".join(
        f"('{k}', {maybe_null(str(rng.randrange(-3, 8)))}, {maybe_null(repr(rng.uniform(-10, 10)))})" for k in keys))
    out.append("INSERT INTO qz.e VALUES " + ", ".join(
        f"({maybe_null(str(rng.randrange(6)))}, {maybe_null(str(rng.randrange(6)))})" for _ in range(20)))
    empty = [t for t in os.environ.get("QUERYDIFF_EMPTY", "").split(",") if t]
    out += [f"DELETE FROM qz.{t}" for t in empty]
    if seed() % 2:
        # With an odd seed sqlearn reads every row from Arrow batches, not
        # from a partition's tail: OPTIMIZE TABLE seals them. Lookups and
        # scans then read only the columns a query names.
        out.append("OPTIMIZE TABLE qz.a, qz.b, qz.c, qz.e")
    return out


A_NUM = ["a.id", "a.g", "a.x", "a.d"]
B_NUM = ["b.id", "b.aid", "b.v"]


def num_lit():
    # No fractional literal: MariaDB finds an indexed integer column equal
    # to 2.5 in some rows (see b_cond).
    return pick(["0", "1", "2", "3", "5", "10", "-1", "20", "50", "NULL", "'3'"])


def a_cond(d=0):
    """A condition on table a, often on an indexed column."""
    if d < 2 and rng.random() < 0.3:
        op = pick(["AND", "OR"])
        return f"({a_cond(d + 1)} {op} {a_cond(d + 1)})"
    if rng.random() < 0.08:
        return f"NOT ({a_cond(d + 1)})"
    k = rng.randrange(10)
    if k == 0:
        return f"a.s {pick(['=', '<', '>=', '<>'])} {text(pick(WORDS))}"
    if k == 1:
        return "a.s LIKE " + text(pick(LIKES))
    if k == 2:
        return f"a.{pick(['g', 'x', 's', 'd', 'dt'])} IS {pick(['', 'NOT '])}NULL"
    if k == 3:
        lo = rng.randrange(-10, 50)
        return f"a.{pick(['id', 'x', 'g'])} BETWEEN {lo} AND {lo + rng.randrange(0, 40)}"
    if k == 4:
        vals = ", ".join(pick(["0", "1", "2", "3", "4", "7", "NULL", "15"]) for _ in range(rng.randrange(1, 4)))
        return f"a.{pick(['id', 'g', 'x'])} {pick(['', 'NOT '])}IN ({vals})"
    if k == 5:
        return f"a.dt {pick(['<', '>=', '='])} '2024-0{rng.randrange(1, 10)}-15'"
    if k == 6:
        return f"a.g = {rng.randrange(5)} AND a.x {pick(['<', '>', '='])} {rng.randrange(-20, 100)}"
    return f"{pick(A_NUM)} {pick(['=', '<', '>', '<=', '>=', '<>', '<=>'])} {num_lit()}"


def b_cond():
    k = rng.randrange(4)
    if k == 0:
        return f"b.t {pick(['=', '<>', '<'])} {text(pick(WORDS))}"
    if k == 1:
        return f"b.{pick(['aid', 'v', 't'])} IS {pick(['', 'NOT '])}NULL"
    # No fractional literal: MariaDB finds b.aid = 2.5 true of some rows
    # it reads through the index on aid.
    return f"{pick(B_NUM)} {pick(['=', '<', '>', '<=', '>=', '<>'])} {pick(['0', '1', '3', '5', '20', 'NULL', '-1'])}"


def limit():
    return pick(["", "", f" LIMIT {rng.randrange(0, 8)}", f" LIMIT {rng.randrange(0, 5)}, {rng.randrange(1, 6)}"])


def single():
    cols = pick(["a.id, a.g, a.x", "a.*", "a.id, a.s, a.d", "a.id, a.x + a.g, a.dt"])
    order = pick(["a.id", "a.id DESC", "a.g, a.id", "a.x DESC, a.id", "a.s, a.id", "a.dt DESC, a.id",
                  "a.d, a.id"])
    return f"SELECT {cols} FROM qz.a WHERE {a_cond()} ORDER BY {order}{limit()}", True


def aggregate():
    if rng.random() < 0.15:
        # One aggregate of a whole table, of its key or another column.
        t, col = pick([("a", "id"), ("b", "id"), ("a", "g"), ("e", "p")])
        return f"SELECT {pick(['MIN', 'MAX'])}({t}.{col}) FROM qz.{t}", False
    # Each aggregate once: the same one twice over a qualified column is
    # refused (docs/sql/compatibility.md).
    # MIN and MAX of a.s would pick one of 'abc' and 'aBc' in no stated
    # order: of LOWER(a.s) instead.
    agg = ", ".join(rng.sample(["COUNT(*)", "COUNT(a.x)", "SUM(a.x)", "MIN(LOWER(a.s))", "MAX(a.d)", "AVG(a.x)",
                                "COUNT(DISTINCT a.s)", "SUM(a.d)", "MAX(a.dt)", "AVG(a.d)", "MIN(a.id)", "MAX(LOWER(a.s))", "MAX(a.id)",
                                "GROUP_CONCAT(a.id ORDER BY a.id)", "SUM(DISTINCT a.x)"], rng.randrange(1, 4)))
    group = pick(["a.g", "LOWER(a.s)", "a.g, a.x > 10", "a.dt", ""])
    where = pick(["", f" WHERE {a_cond()}"])
    if not group:
        return f"SELECT {agg} FROM qz.a{where}", False
    having = pick(["", "", f" HAVING COUNT(*) > {rng.randrange(0, 4)}", f" HAVING SUM(a.x) {pick(['<', '>'])} {rng.randrange(0, 100)}"])
    return f"SELECT {group}, {agg} FROM qz.a{where} GROUP BY {group}{having}", False


def join():
    kind = pick(["JOIN", "LEFT JOIN", "RIGHT JOIN", "JOIN", "LEFT JOIN"])
    on = pick(["a.id = b.aid", "a.id = b.aid AND b.v > 3", "a.g = b.v", "a.s = b.t", "a.id = b.aid AND a.g = b.v"])
    where = pick(["", f" WHERE {a_cond()}", f" WHERE {b_cond()}", f" WHERE {a_cond()} AND {b_cond()}"])
    if rng.random() < 0.3:
        return (f"SELECT a.g, COUNT(*), COUNT(b.id), SUM(b.v) FROM qz.a {kind} qz.b ON {on}{where} GROUP BY a.g",
                False)
    return f"SELECT a.id, a.g, b.id, b.v, b.t FROM qz.a {kind} qz.b ON {on}{where}", False


def three_way():
    return (f"SELECT a.id, b.id, c.k FROM qz.a JOIN qz.b ON a.id = b.aid {pick(['JOIN', 'LEFT JOIN'])} qz.c"
            f" ON c.n = b.v WHERE {a_cond()}", False)


def subquery():
    k = rng.randrange(7)
    if k == 0:
        return f"SELECT a.id, a.g FROM qz.a WHERE a.id {pick(['', 'NOT '])}IN (SELECT b.aid FROM qz.b WHERE {b_cond()})", False
    if k == 1:
        return (f"SELECT a.id FROM qz.a WHERE {pick(['', 'NOT '])}EXISTS (SELECT 1 FROM qz.b WHERE b.aid = a.id"
                f" AND {b_cond()})", False)
    if k == 2:
        return (f"SELECT a.id, (SELECT MAX(b.v) FROM qz.b WHERE b.aid = a.id) AS m FROM qz.a WHERE {a_cond()}",
                False)
    if k == 3:
        return f"SELECT a.id FROM qz.a WHERE a.x > (SELECT AVG(b.v) FROM qz.b WHERE {b_cond()})", False
    if k == 4:
        return (f"SELECT a.id FROM qz.a WHERE a.g {pick(['IN', 'NOT IN'])} (SELECT e.p FROM qz.e"
                f" WHERE e.q {pick(['<', '>', 'IS NOT NULL AND e.q <'])} {rng.randrange(6)})", False)
    if k == 5:
        cmp = (f"a.x {pick(['>', '<', '=', '<>', '>=', '<='])} {pick(['ANY', 'SOME', 'ALL'])}"
               f" (SELECT b.v FROM qz.b WHERE b.aid {pick(['<', '>'])} {rng.randrange(60)}"
               f"{pick(['', ' AND b.aid <> a.id'])})")
        return f"SELECT a.id, a.x FROM qz.a WHERE {pick(['', 'NOT '])}({cmp})", False
    return (f"SELECT t.g, t.n FROM (SELECT a.g, COUNT(*) AS n FROM qz.a WHERE {a_cond()} GROUP BY a.g) AS t"
            f" WHERE t.n > {rng.randrange(3)}", False)


def other():
    k = rng.randrange(8)
    if k == 0:
        return f"SELECT DISTINCT a.g, LOWER(a.s) FROM qz.a WHERE {a_cond()}", False
    if k == 1:
        return (f"SELECT a.g FROM qz.a WHERE {a_cond()} {pick(['UNION', 'UNION ALL'])}"
                f" SELECT b.v FROM qz.b WHERE {b_cond()}", False)
    if k == 2:
        fn = pick(["ROW_NUMBER()", "RANK()", "DENSE_RANK()", "SUM(a.x)", "COUNT(*)", "MAX(a.d)", "LAG(a.x)",
                   "LEAD(a.id, 2)", "FIRST_VALUE(a.s)"])
        part = pick(["PARTITION BY a.g ", ""])
        if rng.random() < 0.4:
            # Ties in the ORDER BY: the default frame takes in the peers,
            # so only functions whose value does not depend on the peers'
            # order.
            order = pick(["ORDER BY a.x > 10", "ORDER BY a.g", ""])
            # MariaDB refuses RANK() without ORDER BY, which MySQL allows.
            fn = pick(["SUM(a.x)", "COUNT(*)", "MAX(a.d)", "MIN(a.x)", "AVG(a.d)"] + (["RANK()", "DENSE_RANK()"] if order else []))
            return f"SELECT a.id, {fn} OVER ({part}{order}) AS w FROM qz.a WHERE {a_cond()}", False
        return f"SELECT a.id, {fn} OVER ({part}ORDER BY a.id) AS w FROM qz.a WHERE {a_cond()}", False
    if k == 3:
        return (f"WITH t AS (SELECT b.aid, SUM(b.v) AS sv FROM qz.b GROUP BY b.aid) SELECT a.id, t.sv FROM qz.a"
                f" JOIN t ON t.aid = a.id WHERE {a_cond()}", False)
    if k == 4:
        return f"SELECT c.k, c.n, c.f FROM qz.c WHERE c.k {pick(['<', '>', '=', '>='])} 'k{rng.randrange(100)}' ORDER BY c.k{limit()}", True
    if k == 5:
        if rng.random() < 0.5:
            return (f"SELECT a.id FROM qz.a WHERE NOT EXISTS (SELECT 1 FROM qz.e WHERE e.p = a.g"
                    f"{pick(['', ' AND e.q > a.x', ' AND e.q < 3'])})", False)
        return f"SELECT e.p, e.q, COUNT(*) FROM qz.e GROUP BY e.p, e.q", False
    if k == 6:
        return (f"SELECT a.id, CASE WHEN a.x > 50 THEN 'hi' WHEN a.x > 0 THEN 'mid' ELSE 'lo' END,"
                f" COALESCE(a.s, 'none'), IFNULL(a.d, 0) FROM qz.a WHERE {a_cond()}", False)
    return (f"SELECT a.g, COUNT(*) FROM qz.a WHERE {a_cond()} GROUP BY a.g ORDER BY COUNT(*) DESC, a.g"
            f"{limit()}", True)


def more():
    """Reads the planner may answer from an index: composite ranges, key
    order with LIMIT, text keys, NULL-safe joins, ordered groups, set
    operations with ORDER BY, and subqueries in ORDER BY."""
    k = rng.randrange(10)
    if k == 0:
        return (f"SELECT a.id, a.g, a.x FROM qz.a WHERE a.g {pick(['=', '<', '>='])}"
                f" {rng.randrange(5)} AND a.x {pick(['<', '>', 'BETWEEN 0 AND'])} {rng.randrange(-20, 100)}"
                f" ORDER BY a.g {pick(['', 'DESC'])}, a.x {pick(['', 'DESC'])}, a.id{limit()}", True)
    if k == 1:
        return (f"SELECT a.id, b.id FROM qz.a JOIN qz.b ON a.id = b.aid WHERE {a_cond()}"
                f" ORDER BY a.id {pick(['', 'DESC'])}, b.id LIMIT {rng.randrange(1, 10)}", True)
    if k == 2:
        keys = ", ".join(f"'k{rng.randrange(100)}'" for _ in range(rng.randrange(1, 5)))
        return f"SELECT c.k, c.n FROM qz.c WHERE c.k {pick(['IN', 'NOT IN'])} ({keys}) ORDER BY c.k", True
    if k == 3:
        return (f"SELECT a.id, e.p, e.q FROM qz.a {pick(['JOIN', 'LEFT JOIN'])} qz.e ON a.g <=> e.p"
                f" WHERE {a_cond()}", False)
    if k == 4:
        return (f"SELECT a.g, COUNT(*) AS n, SUM(a.x) AS s FROM qz.a WHERE {a_cond()} GROUP BY a.g"
                f" HAVING n > {rng.randrange(3)} ORDER BY s {pick(['', 'DESC'])}, a.g{limit()}", True)
    if k == 5:
        return (f"(SELECT a.id AS i FROM qz.a WHERE {a_cond()}) UNION {pick(['', 'ALL '])}"
                f"(SELECT b.id FROM qz.b WHERE {b_cond()}) ORDER BY i {pick(['', 'DESC'])} LIMIT {rng.randrange(1, 12)}", True)
    if k == 6:
        return (f"SELECT a.id FROM qz.a WHERE {a_cond()} ORDER BY (SELECT COUNT(*) FROM qz.b WHERE b.aid = a.id)"
                f" {pick(['', 'DESC'])}, a.id{limit()}", True)
    if k == 7:
        return (f"SELECT t.g, t.m FROM (SELECT a.g, MAX(a.x) AS m FROM qz.a GROUP BY a.g) AS t"
                f" JOIN qz.b ON b.v = t.g WHERE {b_cond()}", False)
    if k == 8:
        # Grouped by LOWER(a.s): which of 'ab' and 'Ab' names their group
        # is the first row's, in no stated order.
        return (f"SELECT LOWER(a.s), COUNT(DISTINCT a.g, a.x), GROUP_CONCAT(DISTINCT a.g ORDER BY a.g) FROM qz.a"
                f" WHERE {a_cond()} GROUP BY LOWER(a.s)", False)
    return (f"SELECT a.id, a.s FROM qz.a WHERE a.s {pick(['IN', 'NOT IN'])} ({text(pick(WORDS))}, {text(pick(WORDS))})"
            f" AND {a_cond()} ORDER BY a.id", True)


def harder():
    """Shapes that combine the others: anti joins written as LEFT JOIN ...
    IS NULL, joins on OR and USING, correlated scalar subqueries in WHERE,
    recursive common table expressions, HAVING without GROUP BY, ORDER BY
    an alias or a position, DISTINCT with LIMIT, windows over groups and
    date arithmetic."""
    k = rng.randrange(12)
    if k == 0:
        return (f"SELECT a.id FROM qz.a LEFT JOIN qz.b ON b.aid = a.id {pick(['', 'AND b.v > 3'])}"
                f" WHERE b.id IS NULL AND {a_cond()}", False)
    if k == 1:
        return (f"SELECT a.id, b.id FROM qz.a JOIN qz.b ON b.aid = a.id OR b.v = a.g WHERE {a_cond()}"
                f" AND b.id < {rng.randrange(5, 40)}", False)
    if k == 2:
        return (f"SELECT a.id FROM qz.a WHERE a.x > (SELECT AVG(a2.x) FROM qz.a AS a2 WHERE a2.g = a.g)"
                f" {pick(['', 'AND ' + a_cond()])}", False)
    if k == 3:
        return (f"WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < {rng.randrange(1, 12)})"
                f" SELECT r.n, COUNT(a.id) FROM r LEFT JOIN qz.a ON a.g = r.n GROUP BY r.n", False)
    if k == 4:
        return f"SELECT COUNT(*), SUM(a.x) FROM qz.a WHERE {a_cond()} HAVING COUNT(*) > {rng.randrange(0, 20)}", False
    if k == 5:
        return (f"SELECT a.id, a.x * 2 AS dbl FROM qz.a WHERE {a_cond()} ORDER BY {pick(['dbl', '2'])}"
                f" {pick(['', 'DESC'])}, a.id{limit()}", True)
    if k == 6:
        return f"SELECT DISTINCT a.g FROM qz.a WHERE {a_cond()} ORDER BY a.g {pick(['', 'DESC'])} LIMIT {rng.randrange(1, 4)}", True
    if k == 7:
        fn = pick(["SUM(COUNT(*)) OVER (ORDER BY a.g)", "RANK() OVER (ORDER BY COUNT(*) DESC)",
                   "COUNT(*) / SUM(COUNT(*)) OVER ()", "MAX(SUM(a.x)) OVER ()", "LAG(MIN(a.x)) OVER (ORDER BY a.g)"])
        return f"SELECT a.g, COUNT(*), {fn} FROM qz.a WHERE {a_cond()} GROUP BY a.g", False
    if k == 8:
        return (f"SELECT a.id, DATE_ADD(a.dt, INTERVAL {rng.randrange(1, 40)} DAY) FROM qz.a"
                f" WHERE DATE_ADD(a.dt, INTERVAL 1 MONTH) {pick(['<', '>='])} '2024-0{rng.randrange(2, 10)}-01'", False)
    if k == 9:
        return (f"SELECT b.id, t.n FROM qz.b JOIN (SELECT a.g, COUNT(*) AS n FROM qz.a GROUP BY a.g) AS t USING (g)"
                f" WHERE {b_cond()}".replace("USING (g)", "ON t.g = b.v"), False)
    if k == 10:
        return (f"SELECT a.id, (SELECT b.t FROM qz.b WHERE b.aid = a.id ORDER BY b.id LIMIT 1) FROM qz.a"
                f" WHERE {a_cond()}", False)
    return (f"SELECT a.g, a.x FROM qz.a WHERE (a.g, a.x) IN (SELECT b.v, b.aid FROM qz.b WHERE {b_cond()})"
            f" {pick(['', 'AND ' + a_cond()])}", False)


def query():
    return pick([single, single, aggregate, join, join, three_way, subquery, subquery, other, other, more, more,
                 harder, harder])()


def norm(v):
    if isinstance(v, float):
        return f"{v:.10g}"
    if isinstance(v, decimal.Decimal):
        return str(v.normalize()) if v == v.to_integral_value() else str(v)
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def run(cur, q):
    try:
        cur.execute(q)
        return ("ok", [tuple(norm(v) for v in r) for r in cur.fetchall()])
    except pymysql.err.MySQLError as e:
        return ("error", e.args[0])


def main():
    conns = [pymysql.connect(**SQ, autocommit=True), pymysql.connect(**MD, autocommit=True)]
    for q in setup_statements():
        for c in conns:
            c.cursor().execute(q)
    diffs = 0
    for _ in range(N):
        q, ordered = query()
        outs = [run(c.cursor(), q) for c in conns]
        same = outs[0] == outs[1]
        if not same and outs[0][0] == outs[1][0] == "ok" and not ordered:
            same = sorted(outs[0][1]) == sorted(outs[1][1])
        if not same:
            diffs += 1
            print(f"DIFF {q}")
            for name, out in zip(["sqlearn", "mariadb"], outs):
                shown = out[1] if out[0] == "error" else sorted(out[1])[:12]
                print(f"  {name}: {out[0]} {shown}")
    print(f"{diffs} differences in {N}")


main()
