#!/usr/bin/env bash
# Compare the effects of random writes on sqlearn and on MariaDB.
#
#   bench/dmldiff.sh [statements-per-seed] [seed ...]
#
# Starts sqlearn and a MariaDB server on loopback ports in a temporary
# directory, then runs bench/differential/dmldiff.py once per seed (default
# seeds 1 2 3, 300 statements each) and prints the statements whose
# outcomes or tables differ. Needs mariadb-server and python3-pymysql.
# With DMLDIFF_TRIGGERS=1, table t has a trigger of every kind and what
# they write is compared too.
set -euo pipefail

COUNT=${1:-300}
shift || true
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SQLEARN_PORT=${SQLEARN_PORT:-13318}
MARIADB_PORT=${MARIADB_PORT:-13319}

. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
against_mariadb "$ROOT/bench/differential/dmldiff.py" "$COUNT" ${*:-1 2 3}
