#!/usr/bin/env bash
# Compare random stored procedures run on sqlearn and on MariaDB.
#
#   bench/procdiff.sh [procedures-per-seed] [seed ...]
#
# Starts sqlearn and a MariaDB server on loopback ports in a temporary
# directory, then runs bench/differential/procdiff.py once per seed (default
# seeds 1 2 3, 200 procedures each) and prints the procedures whose
# outcomes, variables or tables differ. Needs mariadb-server and
# python3-pymysql.
set -euo pipefail

COUNT=${1:-200}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SQLEARN_PORT=${SQLEARN_PORT:-13320}
MARIADB_PORT=${MARIADB_PORT:-13321}

. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
against_mariadb "$ROOT/bench/differential/procdiff.py" "$COUNT" ${*:-1 2 3}
