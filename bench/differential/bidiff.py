"""Differential check of the SQL that BI and reporting tools send: time
grains (by day, week, month, quarter, year, hour), shares of a total,
pivots with CASE, top-N per group, running totals and other window
functions, ODBC escapes, ROLLUP subtotals and the like, over a small
orders table, run on sqlearn and on MariaDB. Column names and values are
compared (floats to 10 significant digits, DECIMALs with their digits);
each statement whose answers differ is printed, then a count. The
statements are fixed: their answers are the same in MySQL and MariaDB
(none depends on an order SQL leaves open).

Usage: bidiff.py SQLEARN_PORT MARIADB_PORT
"""
import decimal
import sys

import pymysql

SETUP = [
    "DROP DATABASE IF EXISTS bidf",
    "CREATE DATABASE bidf CHARACTER SET utf8mb4",
    "CREATE TABLE bidf.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT NOT NULL, created_at DATETIME NOT NULL,"
    " shipped DATE NULL, amount DECIMAL(10,2) NOT NULL, qty SMALLINT, status VARCHAR(16), region CHAR(2), score DOUBLE,"
    " KEY (customer_id), KEY (created_at))",
    "CREATE TABLE bidf.customers (id INT PRIMARY KEY, name VARCHAR(40), signup DATE, tier ENUM('free','pro','ent'),"
    " flags SET('a','b','c'))",
    "INSERT INTO bidf.customers VALUES (1,'Ann','2020-01-05','free','a'),(2,'Bob','2020-02-29','pro','a,b'),"
    "(3,'Cé','2021-12-31','ent',''),(4,NULL,NULL,NULL,NULL),(5,'Dee','2022-06-15','pro','c')",
    "INSERT INTO bidf.orders (customer_id, created_at, shipped, amount, qty, status, region, score) VALUES"
    " (1,'2023-01-01 10:00:00','2023-01-03',10.50,1,'paid','EU',1.5),"
    " (1,'2023-01-15 23:59:59',NULL,99.99,3,'open','EU',NULL),"
    " (2,'2023-02-28 00:00:00','2023-03-01',5.00,2,'paid','US',2.25),"
    " (2,'2023-03-31 12:30:00','2023-04-02',250.00,10,'refunded','US',-1),"
    " (3,'2023-12-31 23:00:00',NULL,0.01,1,'paid','AP',0),"
    " (3,'2024-01-01 00:00:01','2024-01-05',1234.56,7,'paid','AP',3.14159),"
    " (4,'2024-02-29 08:15:00','2024-03-01',42.00,NULL,NULL,NULL,1e10),"
    " (5,'2024-07-04 18:00:00','2024-07-10',7.77,2,'open','EU',0.1),"
    " (5,'2024-07-04 18:00:00',NULL,7.77,2,'open','EU',0.2),"
    " (1,'2024-11-30 06:00:00','2024-12-02',300.10,4,'paid','US',9.99)",
]

O, C = "bidf.orders", "bidf.customers"
STATEMENTS = [
    # Time grains, as the tools write them.
    f"SELECT DATE(created_at) AS d, SUM(amount) FROM {O} GROUP BY DATE(created_at) ORDER BY d",
    f"SELECT str_to_date(concat(yearweek(created_at), ' Sunday'), '%X%V %W') AS w, count(*) FROM {O} GROUP BY w ORDER BY w",
    f"SELECT str_to_date(concat(date_format(created_at, '%Y-%m'), '-01'), '%Y-%m-%d') AS m, sum(amount) FROM {O} GROUP BY m ORDER BY m",
    f"SELECT makedate(year(created_at), 1) + interval (quarter(created_at) - 1) quarter AS q, count(*) FROM {O} GROUP BY q ORDER BY q",
    f"SELECT date_add(date(created_at), INTERVAL ((-1 * dayofweek(created_at)) + 1) day) AS w, count(*) FROM {O} GROUP BY w ORDER BY w",
    f"SELECT DATE(DATE_SUB(created_at, INTERVAL DAYOFWEEK(created_at) - 1 DAY)) t, SUM(amount) FROM {O} GROUP BY t ORDER BY t",
    f"SELECT DATE(DATE_SUB(created_at, INTERVAL DAYOFMONTH(created_at) - 1 DAY)) AS m, COUNT(*) FROM {O} GROUP BY m ORDER BY m",
    f"SELECT DATE(DATE_SUB(created_at, INTERVAL DAYOFYEAR(created_at) - 1 DAY)) t FROM {O} ORDER BY id",
    f"SELECT DATE_ADD(DATE(created_at), INTERVAL HOUR(created_at) HOUR) t, COUNT(*) FROM {O} GROUP BY t ORDER BY t",
    f"SELECT DATE_ADD(DATE(created_at), INTERVAL (HOUR(created_at)*60 + MINUTE(created_at)) MINUTE) t FROM {O} ORDER BY id",
    f"SELECT TIMESTAMP(DATE_FORMAT(created_at, '%Y-%m-%d %H:00:00')) AS h FROM {O} ORDER BY id",
    f"SELECT CAST(created_at AS DATE) AS d, COUNT(*) AS n FROM {O} GROUP BY CAST(created_at AS DATE) ORDER BY d",
    f"SELECT YEAR(created_at) y, MONTH(created_at) m, SUM(amount) FROM {O} GROUP BY y, m HAVING SUM(amount) > 10 ORDER BY y DESC, m DESC LIMIT 3",
    f"SELECT date_format(created_at, '%Y-%m') AS m, count(*) AS c FROM {O} GROUP BY m ORDER BY m",
    f"SELECT DATE_FORMAT(created_at, '%a %b %e %Y %l:%i %p'), DATE_FORMAT(created_at, '%W %M %D %y %H:%i:%s %j %U %u %V %v %X %x') FROM {O} ORDER BY id",
    f"SELECT TIMESTAMPDIFF(DAY, created_at, shipped), DATEDIFF(shipped, created_at), WEEK(created_at, 3), LAST_DAY(created_at) FROM {O} ORDER BY id",
    # Shares of a total, pivots, bins.
    f"SELECT region, ROUND(100 * SUM(amount) / (SELECT SUM(amount) FROM {O}), 1) pct FROM {O} GROUP BY region ORDER BY region",
    f"SELECT SUM(amount) / (SELECT SUM(amount) FROM {O}), COUNT(*) / (SELECT COUNT(*) FROM {O}) FROM {O}",
    f"SELECT customer_id, SUM(amount) FROM {O} GROUP BY customer_id HAVING SUM(amount) > (SELECT AVG(amount) FROM {O}) ORDER BY customer_id",
    f"SELECT region, ROUND(100.0 * COUNT(*) / SUM(COUNT(*)) OVER (), 2) pct FROM {O} GROUP BY region ORDER BY region",
    f"SELECT customer_id, SUM(CASE WHEN region = 'EU' THEN amount ELSE 0 END) eu, SUM(CASE WHEN region = 'US' THEN amount END) us,"
    f" COUNT(CASE WHEN status = 'paid' THEN 1 END) paid FROM {O} GROUP BY customer_id ORDER BY customer_id",
    f"SELECT floor(((amount - 0.0) / 125.0)) * 125.0 AS b, count(*) FROM {O} GROUP BY floor(((amount - 0.0) / 125.0)) * 125.0 ORDER BY b",
    f"SELECT CASE WHEN amount > 100 THEN 'big' WHEN amount > 10 THEN 'mid' ELSE 'small' END AS bucket, COUNT(*) FROM {O} GROUP BY bucket ORDER BY bucket",
    # Windows.
    f"SELECT id, SUM(amount) OVER (PARTITION BY customer_id ORDER BY created_at ROWS UNBOUNDED PRECEDING) run, RANK() OVER (ORDER BY amount DESC) r,"
    f" NTILE(3) OVER (ORDER BY id) t FROM {O} ORDER BY id",
    f"SELECT id, amount, RANK() OVER (ORDER BY amount), DENSE_RANK() OVER (ORDER BY amount), ROUND(PERCENT_RANK() OVER (ORDER BY amount), 6),"
    f" CUME_DIST() OVER (ORDER BY amount) FROM {O} ORDER BY id",
    f"SELECT region, amount, AVG(amount) OVER (PARTITION BY region) a, amount - AVG(amount) OVER (PARTITION BY region) d FROM {O} ORDER BY id",
    f"SELECT YEAR(created_at) y, SUM(amount) s, LAG(SUM(amount)) OVER (ORDER BY YEAR(created_at)) prev,"
    f" SUM(amount) - LAG(SUM(amount)) OVER (ORDER BY YEAR(created_at)) growth FROM {O} GROUP BY YEAR(created_at) ORDER BY y",
    f"WITH m AS (SELECT DATE_FORMAT(created_at, '%Y-%m') mon, SUM(amount) s FROM {O} GROUP BY mon) SELECT mon, s, SUM(s) OVER (ORDER BY mon) cum FROM m ORDER BY mon",
    f"SELECT * FROM (SELECT customer_id, id, amount, DENSE_RANK() OVER (PARTITION BY customer_id ORDER BY amount DESC, id) r FROM {O}) t WHERE r <= 1 ORDER BY customer_id",
    f"SELECT id, NTH_VALUE(amount, 2) OVER (ORDER BY id) FROM {O} ORDER BY id",
    f"SELECT id, AVG(amount) OVER (ORDER BY created_at, id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) ma FROM {O} ORDER BY id",
    # Derived tables, subqueries, joins.
    f"SELECT SUM(s), AVG(s) FROM (SELECT SUM(amount) s FROM {O} GROUP BY region) m",
    f"SELECT (SELECT SUM(s) FROM (SELECT SUM(amount) s FROM {O} GROUP BY region) m) / 2",
    f"SELECT c.name, COUNT(o.id) n, COALESCE(SUM(o.amount), 0) total FROM {C} c LEFT JOIN {O} o ON o.customer_id = c.id GROUP BY c.id, c.name ORDER BY total DESC, c.id",
    f"SELECT c.name, (SELECT o.status FROM {O} o WHERE o.customer_id = c.id ORDER BY o.created_at DESC, o.id DESC LIMIT 1) FROM {C} c ORDER BY c.id",
    f"SELECT c.name FROM {C} c WHERE NOT EXISTS (SELECT 1 FROM {O} o WHERE o.customer_id = c.id AND o.status = 'paid') ORDER BY c.id",
    f"WITH RECURSIVE days(d) AS (SELECT DATE '2024-07-01' UNION ALL SELECT d + INTERVAL 1 DAY FROM days WHERE d < '2024-07-07')"
    f" SELECT days.d, COUNT(o.id) FROM days LEFT JOIN {O} o ON DATE(o.created_at) = days.d GROUP BY days.d ORDER BY days.d",
    f"SELECT region, status, SUM(amount) FROM {O} GROUP BY region, status WITH ROLLUP",
    f"SELECT customer_id, GROUP_CONCAT(DISTINCT region ORDER BY region), COUNT(*) FROM {O} GROUP BY customer_id WITH ROLLUP",
    # Types and functions reports lean on.
    f"SELECT tier, FIND_IN_SET('b', flags), flags + 0, tier + 0, CAST(tier AS CHAR) FROM {C} ORDER BY id",
    f"SELECT UNIX_TIMESTAMP(created_at), UNIX_TIMESTAMP(shipped), FROM_UNIXTIME(1700000000) FROM {O} ORDER BY id LIMIT 3",
    f"SELECT TRUNCATE(amount, 0), ROUND(amount, -1), FORMAT(amount, 1), FORMAT(score, 2) FROM {O} ORDER BY id",
    f"SELECT IFNULL(qty, 0) * amount, amount / qty, qty DIV 2, qty MOD 3 FROM {O} ORDER BY id",
    f"SELECT {{fn CONCAT('a', 'b')}}, {{d '2020-01-02'}}, {{ts '2020-01-02 03:04:05'}}, {{t '03:04:05'}}",
    f"SELECT o.id FROM {{oj {O} o LEFT OUTER JOIN {C} c ON o.customer_id = c.id}} WHERE o.created_at >= {{d '2024-01-01'}} ORDER BY o.id",
    f"SELECT DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05' + INTERVAL 1 DAY",
]


def norm(v):
    if isinstance(v, float):
        return f"{v:.10g}"
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def run(conn, q):
    with conn.cursor() as cur:
        try:
            cur.execute(q)
            return [d[0] for d in cur.description], [tuple(norm(v) for v in r) for r in cur.fetchall()]
        except pymysql.MySQLError as e:
            return f"ERR {e.args[0]}"


def main():
    conns = [pymysql.connect(host="127.0.0.1", port=int(p), user="root", autocommit=True) for p in sys.argv[1:3]]
    for c in conns:
        with c.cursor() as cur:
            for s in SETUP:
                cur.execute(s)
    diffs = 0
    for q in STATEMENTS:
        a, b = (run(c, q) for c in conns)
        if a != b:
            diffs += 1
            print(f"DIFF {q}\n  sqlearn: {a}\n  mariadb: {b}")
    print(f"{diffs} differences in {len(STATEMENTS)}")


main()
