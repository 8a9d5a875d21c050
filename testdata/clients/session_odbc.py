"""A session through ODBC (MariaDB Connector/ODBC under unixODBC, driven
by pyodbc), the way BI tools that speak ODBC connect: catalog functions
(SQLTables, SQLGetTypeInfo, SQLPrimaryKeys, SQLStatistics, SQLForeignKeys), parameterized statements of the common types, batches,
transactions and error states. Prints 'ok' on success."""
import datetime
import decimal
import sys

import pyodbc

host, port = sys.argv[1], sys.argv[2]
conn = pyodbc.connect(f"DRIVER={{MariaDB Unicode}};SERVER={host};PORT={port};USER=root;PASSWORD=;", autocommit=True)
cur = conn.cursor()
cur.execute("CREATE DATABASE od")
cur.execute("USE od")
cur.execute("CREATE TABLE region (id INT PRIMARY KEY, name VARCHAR(32) NOT NULL)")
cur.execute("CREATE TABLE sale (id BIGINT PRIMARY KEY, region INT NOT NULL, amount DECIMAL(12,2), at DATETIME, "
            "note TEXT, KEY by_region (region), FOREIGN KEY (region) REFERENCES region (id))")

# Catalog functions.
tables = sorted(r.table_name for r in cur.tables(catalog="od", tableType="TABLE"))
assert tables == ["region", "sale"], tables
# SQLColumns is left out: Connector/ODBC 3.1 prepares its query on the
# server, and the protocol layer refuses its @v := assignments before they
# reach the server's parser, which reads them.
# SQLGetTypeInfo's query is a UNION of some forty rows of different types.
types = {r.type_name for r in cur.getTypeInfo()}
assert {"VARCHAR", "BIGINT", "DECIMAL", "DATETIME", "BLOB"} <= types, types
assert [r.column_name for r in cur.primaryKeys("sale", catalog="od")] == ["id"]
stats = {r.index_name for r in cur.statistics("sale", catalog="od") if r.index_name}
assert {"PRIMARY", "by_region"} <= stats, stats
fks = [(r.pktable_name, r.pkcolumn_name, r.fkcolumn_name) for r in cur.foreignKeys(foreignTable="sale", foreignCatalog="od")]
assert fks == [("region", "id", "region")], fks

# Parameters, batches and types.
cur.executemany("INSERT INTO region VALUES (?, ?)", [(1, "north"), (2, "south")])
rows = [(i, 1 + i % 2, (decimal.Decimal(i) / 4).quantize(decimal.Decimal("0.01")), datetime.datetime(2024, 3, 1, 12, 0, i % 60), None if i % 5 else f"n{i}")
        for i in range(200)]
cur.executemany("INSERT INTO sale VALUES (?, ?, ?, ?, ?)", rows)
cur.execute("SELECT r.name, COUNT(*), SUM(s.amount) FROM sale s JOIN region r ON r.id = s.region WHERE s.at >= ? "
            "GROUP BY r.name ORDER BY r.name", datetime.datetime(2024, 3, 1))
got = [tuple(r) for r in cur.fetchall()]
assert got == [("north", 100, decimal.Decimal("2475.00")), ("south", 100, decimal.Decimal("2500.00"))], got
cur.execute("SELECT id, amount, at, note FROM sale WHERE id = ?", 5)
r = cur.fetchone()
assert (r.id, r.amount, r.at, r.note) == (5, decimal.Decimal("1.25"), datetime.datetime(2024, 3, 1, 12, 0, 5), "n5"), r

# Transactions and errors.
conn.autocommit = False
cur.execute("DELETE FROM sale")
conn.rollback()
conn.autocommit = True
cur.execute("SELECT COUNT(*) FROM sale")
assert cur.fetchone()[0] == 200
for sql, state in [("INSERT INTO region VALUES (1, 'again')", "23000"),
                   ("INSERT INTO sale (id, region) VALUES (999, 7)", "23000"),
                   ("SELECT * FROM missing", "42S02"),
                   ("SELEC 1", "42000")]:
    try:
        cur.execute(sql)
        raise AssertionError(f"accepted: {sql}")
    except pyodbc.Error as e:
        assert e.args[0] == state, (sql, e.args)
print("ok")
