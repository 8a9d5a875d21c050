#!/usr/bin/env bash
# Compare sqlearn's answers to random queries with MariaDB's.
#
#   bench/querydiff.sh [queries-per-seed] [seed ...]
#
# Starts sqlearn and a MariaDB server on loopback ports in a temporary
# directory, then runs bench/differential/querydiff.py once per seed (default
# seeds 1 2 3, 300 queries each) and prints the queries whose
# answers differ. Needs mariadb-server and python3-pymysql. With
# QUERYDIFF_EMPTY=a,b,c,e (any of the tables) those tables are left empty.
set -euo pipefail

COUNT=${1:-300}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SQLEARN_PORT=${SQLEARN_PORT:-13320}
MARIADB_PORT=${MARIADB_PORT:-13321}

. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
against_mariadb "$ROOT/bench/differential/querydiff.py" "$COUNT" ${*:-1 2 3}
