#!/usr/bin/env bash
# Times full-text searches in sqlearn and in MariaDB, in one run on this
# machine, and checks that both answer alike (bench/fulltext.py).
#
#   bench/fulltext.sh [DOCS] [RUNS]
#
# Builds sqlearn, starts it and a MariaDB server on loopback ports, loads
# the MovieLens titles and DOCS documents made of them (default 100000)
# into both, and prints each query's median seconds in each server and
# their ratio over RUNS runs (default 5). Then times the first search
# after a write, which makes the index's words anew in sqlearn.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
DOCS=${1:-100000}
RUNS=${2:-5}
need mariadb-server mariadb-client python3-pymysql

SQLEARN_PORT=3431 MARIADB_PORT=3432
ROOT=$(pwd)
serve_both
DATASETS=${DATASETS:-$(cd .. && pwd)/shared/datasets} /usr/bin/python3 bench/fulltext.py $SQLEARN_PORT $MARIADB_PORT "$DOCS" "$RUNS"
