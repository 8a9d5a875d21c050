#!/usr/bin/env bash
# Compare sqlearn's answers to the SQL of BI and reporting tools with
# MariaDB's.
#
#   bench/bidiff.sh
#
# Starts sqlearn and a MariaDB server on loopback ports in a temporary
# directory, then runs bench/differential/bidiff.py, a fixed set of
# statements (time grains, shares of a total, pivots, windows, ROLLUP,
# ODBC escapes), and prints those whose answers differ. Needs
# mariadb-server and python3-pymysql.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SQLEARN_PORT=${SQLEARN_PORT:-13318}
MARIADB_PORT=${MARIADB_PORT:-13319}

. "$(dirname "$0")/lib.sh"
against_mariadb "$ROOT/bench/differential/bidiff.py" 0 1
