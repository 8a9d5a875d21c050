"""Statements by key inside one transaction that has written many rows.

Usage: txwrites.py PORT ROWS [KINDS]

Opens a transaction, inserts ROWS rows one INSERT at a time, then runs
ROWS statements of each kind below (or of the KINDS named, comma
separated), each by one key, still inside the transaction, and commits. Prints one line of JSON: statements per second
of each kind. The table has an integer primary key, a unique text key
and a plain integer key.
"""
import json
import sys
import time

import pymysql

port, rows = int(sys.argv[1]), int(sys.argv[2])
kinds = sys.argv[3].split(",") if len(sys.argv) > 3 and sys.argv[3] else None
conn = pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True)
cur = conn.cursor()
cur.execute("CREATE DATABASE IF NOT EXISTS txw")
cur.execute("USE txw")
cur.execute("DROP TABLE IF EXISTS t")
cur.execute("CREATE TABLE t (id INT PRIMARY KEY, a INT, e VARCHAR(30), b VARCHAR(20), c DOUBLE, "
            "UNIQUE KEY ue (e), KEY ka (a))")

rates = {}


def phase(name, statement):
    if kinds is not None and name not in kinds and name != "insert":
        return
    start = time.perf_counter()
    for i in range(rows):
        cur.execute(statement(i))
        cur.fetchall()
    rates[name] = rows / (time.perf_counter() - start)


cur.execute("BEGIN")
phase("insert", lambda i: "INSERT INTO t VALUES (%d, %d, 'e%d@x', 'row %d', 0.5)" % (i, i % 100, i, i))
phase("select by primary key", lambda i: "SELECT a, b FROM t WHERE id = %d" % i)
phase("update by primary key", lambda i: "UPDATE t SET c = c + 1 WHERE id = %d" % i)
phase("select by unique key", lambda i: "SELECT id FROM t WHERE e = 'e%d@x'" % i)
phase("update by unique key", lambda i: "UPDATE t SET c = c + 1 WHERE e = 'e%d@x'" % i)
phase("count by plain key", lambda i: "SELECT COUNT(*) FROM t WHERE a = %d" % (i % 100))
phase("select a key range", lambda i: "SELECT id FROM t WHERE id BETWEEN %d AND %d" % (i, i + 2))
phase("delete by primary key", lambda i: "DELETE FROM t WHERE id = %d" % i)
cur.execute("COMMIT")
print(json.dumps(rates))
