"""Differential check of scalar expressions: random expressions over a
table of every common type, run on sqlearn and on MariaDB, whose answers
are compared value by value (floats to 10 significant digits, DECIMALs as
numbers). Prints each expression whose answers differ and a count.

Usage: exprdiff.py SQLEARN_PORT MARIADB_PORT [COUNT [SEED]]
"""
import decimal

import pymysql

from cases import connections_and_cases

SQ, MD, N, rng = connections_and_cases()

SETUP = [
    "DROP DATABASE IF EXISTS fz",
    "CREATE DATABASE fz",
    "CREATE TABLE fz.t (id INT PRIMARY KEY, i INT, u BIGINT UNSIGNED, d DECIMAL(10,2), f DOUBLE, s VARCHAR(20), dt DATE, ts DATETIME, tm TIME)",
    "INSERT INTO fz.t VALUES (1, 7, 3, 12.50, 2.5, 'Hello', '2024-01-15', '2024-01-15 10:20:30', '10:20:30'),"
    "(2, -3, 0, -0.75, -1e-3, 'abc def', '1999-12-31', '1999-12-31 23:59:59', '-01:00:00'),"
    "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
    "(4, 0, 18446744073709551615, 99999999.99, 1e20, '', '2000-02-29', '2000-02-29 00:00:00', '838:59:59'),"
    "(5, 2147483647, 42, 0.01, 3.14159, '  pad  ', '2024-12-31', '2024-02-29 12:00:00', '00:00:01')",
]

NUM = ["i", "u", "d", "f", "id"]
STR = ["s"]
DATE = ["dt", "ts"]
LIT_NUM = ["0", "1", "-1", "2.5", "3", "10", "0.5", "-7", "1e3", "NULL", "'3'", "'2x'"]
LIT_STR = ["'abc'", "'Hello'", "''", "'a,b'", "'x'", "NULL", "' sp '", "'a\\\\b'", "'c\\\\'", "'5%'", "'a_c'"]
# LIKE's patterns: wildcards escaped by the default escape, by one named
# in ESCAPE and by ESCAPE '' (the default again), a pattern ending in its
# escape character, and patterns computed from the row.
LIKES = ["'a%'", "'%l_'", "'%\\\\%'", "'c\\\\'", "'%\\\\'", "'5\\%'", "'a\\_c'", "'a|_c' ESCAPE '|'",
         "'%|' ESCAPE '|'", "'%||%' ESCAPE '|'", "'5\\%' ESCAPE ''", "'_%'", "''"]


def num(d=0):
    if d > 2 or rng.random() < 0.35:
        return rng.choice(NUM + LIT_NUM)
    k = rng.randrange(14)
    a, b = num(d + 1), num(d + 1)
    return [
        f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"({a} / {b})", f"({a} DIV {b})", f"({a} % {b})",
        f"ABS({a})", f"ROUND({a}, 1)", f"FLOOR({a})", f"CEIL({a})", f"SIGN({a})",
        f"GREATEST({a}, {b})", f"IFNULL({a}, {b})", f"LENGTH({strx(d + 1)})",
    ][k]


def strx(d=0):
    if d > 2 or rng.random() < 0.35:
        return rng.choice(STR + LIT_STR)
    k = rng.randrange(14)
    a, b = strx(d + 1), strx(d + 1)
    n = rng.choice(["1", "2", "3", "0", "-1", "NULL"])
    return [
        f"CONCAT({a}, {b})", f"UPPER({a})", f"LOWER({a})", f"TRIM({a})", f"SUBSTRING({a}, {n})",
        f"LEFT({a}, {n})", f"RIGHT({a}, {n})", f"REPLACE({a}, 'l', 'L')", f"LPAD({a}, 6, '*')",
        f"REVERSE({a})", f"CONCAT_WS('-', {a}, {b})", f"IF({cond(d + 1)}, {a}, {b})",
        f"CAST({num(d + 1)} AS CHAR)", f"DATE_FORMAT({rng.choice(DATE)}, '%Y/%m/%d %H:%i')",
    ][k]


def cond(d=0):
    if d > 2 or rng.random() < 0.3:
        a, b = num(d + 1), num(d + 1)
        op = rng.choice(["=", "<", ">", "<=", "<>", "<=>"])
        return f"({a} {op} {b})"
    k = rng.randrange(6)
    return [
        f"({cond(d + 1)} AND {cond(d + 1)})", f"({cond(d + 1)} OR {cond(d + 1)})", f"(NOT {cond(d + 1)})",
        f"({num(d + 1)} IS NULL)", f"({strx(d + 1)} {like(d + 1)})", f"({num(d + 1)} BETWEEN 0 AND 10)",
    ][k]


def like(d):
    negated = rng.choice(["", "NOT "])
    if rng.random() < 0.25:
        tail = rng.choice(["'%'", "'_'", "'\\\\'"])
        return f"{negated}LIKE CONCAT({strx(d + 1)}, {tail})"
    return f"{negated}LIKE {rng.choice(LIKES)}"


def date(d=0):
    c = rng.choice(DATE)
    k = rng.randrange(10)
    return [
        f"YEAR({c})", f"MONTH({c})", f"DAYOFWEEK({c})", f"DAYOFYEAR({c})", f"DATEDIFF({c}, '2024-01-01')",
        f"LAST_DAY({c})", f"DATE({c})", f"WEEKDAY({c})", f"QUARTER({c})", f"TIMESTAMPDIFF(DAY, {c}, '2024-03-01')",
    ][k]


def expr():
    return rng.choice([num, num, strx, cond, date])()


def run(conn, q):
    with conn.cursor() as cur:
        try:
            cur.execute(q)
            return [tuple(norm(v) for v in r) for r in cur.fetchall()]
        except pymysql.MySQLError as e:
            return f"ERR {e.args[0]}"


def norm(v):
    if isinstance(v, float):
        return float(f"{v:.10g}")
    if isinstance(v, decimal.Decimal):
        return float(f"{float(v):.10g}")
    if isinstance(v, bytes):
        return v.decode("utf8", "replace")
    return v


sq, md = pymysql.connect(**SQ, autocommit=True), pymysql.connect(**MD, autocommit=True)
for c in (sq, md):
    with c.cursor() as cur:
        for s in SETUP:
            cur.execute(s)
bad = 0
seen = set()
for _ in range(N):
    e = expr()
    q = f"SELECT {e} FROM fz.t ORDER BY id"
    a, b = run(sq, q), run(md, q)
    if a != b:
        key = e[:40]
        if key in seen:
            continue
        seen.add(key)
        bad += 1
        print(f"DIFF {e}\n  sqlearn: {a}\n  mariadb: {b}")
print(f"{bad} differences in {N}")
