"""Times CALL sys.ML_TRAIN in a tight loop on the diabetes table.

    python3 bench/ml_train_loop.py PORT [CALLS]

Loads the shared datasets' diabetes table (442 rows, 10 features) into
b.d of the sqlearn server on 127.0.0.1:PORT if it is empty, then trains a
linear regression CALLS times (default 300) with a generated handle, as a
script sweeping models would, and prints the median and tenth percentile
of the calls' times as the client sees them. SQLEARN_DATASETS names the
datasets directory (default ../shared/datasets).
"""
import gzip
import os
import sys
import time

import pymysql

port = int(sys.argv[1])
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 300
data = os.environ.get("SQLEARN_DATASETS", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets"))


def lines(name):
    with gzip.open(os.path.join(data, "tabular", name), "rt") as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


conn = pymysql.connect(host="127.0.0.1", port=port, user="root", autocommit=True)
cur = conn.cursor()
cur.execute("CREATE DATABASE IF NOT EXISTS b")
x, y = lines("diabetes_data_raw.csv.gz"), lines("diabetes_target.csv.gz")
cols = ", ".join("f%d DOUBLE" % i for i in range(len(x[0])))
cur.execute("CREATE TABLE IF NOT EXISTS b.d (id INT PRIMARY KEY, %s, target DOUBLE)" % cols)
cur.execute("SELECT COUNT(*) FROM b.d")
if cur.fetchone()[0] == 0:
    rows = ", ".join("(%d, %s, %s)" % (i, ", ".join(r), y[i][0]) for i, r in enumerate(x))
    cur.execute("INSERT INTO b.d VALUES " + rows)
times = []
for _ in range(calls):
    cur.execute("SET @m = NULL")
    t0 = time.perf_counter()
    cur.execute("CALL sys.ML_TRAIN('b.d', 'target', JSON_OBJECT('task', 'regression', "
                "'algorithm', 'LinearRegression', 'exclude_column_list', JSON_ARRAY('id')), @m)")
    cur.fetchall()
    times.append(time.perf_counter() - t0)
times.sort()
print("%d calls: median %.2f ms, p10 %.2f ms" % (calls, times[len(times) // 2] * 1000, times[len(times) // 10] * 1000))
