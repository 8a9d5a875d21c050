#!/usr/bin/env bash
# Compare sqlearn's answers to random scalar expressions with MariaDB's.
#
#   bench/exprdiff.sh [expressions-per-seed] [seed ...]
#
# Starts sqlearn and a MariaDB server on loopback ports in a temporary
# directory, then runs bench/differential/exprdiff.py once per seed (default
# seeds 1 2 3, 300 expressions each) and prints the expressions whose
# answers differ. Needs mariadb-server and python3-pymysql.
set -euo pipefail

COUNT=${1:-300}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SQLEARN_PORT=${SQLEARN_PORT:-13316}
MARIADB_PORT=${MARIADB_PORT:-13317}

. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
against_mariadb "$ROOT/bench/differential/exprdiff.py" "$COUNT" ${*:-1 2 3}
