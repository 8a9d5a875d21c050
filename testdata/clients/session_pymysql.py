"""A session through Python's pymysql: DDL, DML with parameters,
transactions, a BLOB round trip and error codes. Prints 'ok' on success."""
import sys

import pymysql

host, port = sys.argv[1], int(sys.argv[2])
conn = pymysql.connect(host=host, port=port, user="root", password="", autocommit=True)
cur = conn.cursor()
cur.execute("CREATE DATABASE py")
cur.execute("USE py")
cur.execute("CREATE TABLE kv (k VARCHAR(32) PRIMARY KEY, v LONGBLOB, n BIGINT)")
blob = bytes(range(256)) * 4096
cur.executemany("INSERT INTO kv VALUES (%s, %s, %s)", [("a", blob, 1), ("b", b"", 2), ("c", None, None)])
cur.execute("SELECT k, v, n FROM kv ORDER BY k")
rows = cur.fetchall()
assert rows[0] == ("a", blob, 1), rows[0][0]
assert rows[1] == ("b", b"", 2), rows[1]
assert rows[2] == ("c", None, None), rows[2]

conn.autocommit(False)
cur.execute("UPDATE kv SET n = n + 10 WHERE k = %s", ("a",))
conn.rollback()
cur.execute("SELECT n FROM kv WHERE k = 'a'")
assert cur.fetchone() == (1,)
cur.execute("UPDATE kv SET n = n + 10 WHERE k = %s", ("a",))
conn.commit()
cur.execute("SELECT n FROM kv WHERE k = 'a'")
assert cur.fetchone() == (11,)
conn.autocommit(True)

try:
    cur.execute("INSERT INTO kv (k) VALUES ('a')")
    raise AssertionError("duplicate key accepted")
except pymysql.err.IntegrityError as e:
    assert e.args[0] == 1062, e.args
try:
    cur.execute("SELECT * FROM missing")
    raise AssertionError("unknown table accepted")
except pymysql.err.ProgrammingError as e:
    assert e.args[0] == 1146, e.args
try:
    cur.execute("SELEC 1")
    raise AssertionError("bad syntax accepted")
except pymysql.err.ProgrammingError as e:
    assert e.args[0] == 1064, e.args

# A procedure's every SELECT is a result set of the CALL's answer, then OK.
cur.execute("CREATE PROCEDURE kv_report() BEGIN SELECT COUNT(*) FROM kv; SELECT k FROM kv ORDER BY k; END")
cur.execute("CALL kv_report()")
sets = [cur.fetchall()]
while cur.nextset():
    sets.append(cur.fetchall())
assert sets == [((3,),), (("a",), ("b",), ("c",)), ()], sets

cur.execute("SELECT @@version")
assert cur.fetchone()[0] == conn.get_server_info(), (conn.get_server_info(),)
print("ok")
