#!/usr/bin/env bash
# Compare sqlearn's answers to random scalar expressions with MariaDB's.
#
#   bench/exprdiff.sh [expressions-per-seed] [seed ...]
#
# Starts sqlearn and a MariaDB server on loopback ports in a temporary
# directory, then runs bench/exprdiff/exprdiff.py once per seed (default
# seeds 1 2 3, 300 expressions each) and prints the expressions whose
# answers differ. Needs mariadb-server and python3-pymysql.
set -euo pipefail

COUNT=${1:-300}
shift || true
SEEDS=${*:-1 2 3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
SQLEARN_PORT=${SQLEARN_PORT:-13316}
MARIADB_PORT=${MARIADB_PORT:-13317}

. "$(dirname "$0")/lib.sh"
need mariadb-server mariadb-client python3-pymysql

cleanup() {
	[ -n "${SQLEARN_PID:-}" ] && kill "$SQLEARN_PID" 2>/dev/null || true
	[ -n "${MARIADB_PID:-}" ] && kill "$MARIADB_PID" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

(cd "$ROOT" && make -s build)
"$ROOT/bin/sqlearn" serve --addr 127.0.0.1:$SQLEARN_PORT --data-dir "$WORK/sqlearn" --log-level warn 2>"$WORK/sqlearn.log" &
SQLEARN_PID=$!
start_mariadb "$WORK" $MARIADB_PORT
wait_port $SQLEARN_PORT
wait_port $MARIADB_PORT

for seed in $SEEDS; do
	echo "seed $seed:"
	/usr/bin/python3 "$ROOT/bench/exprdiff/exprdiff.py" $SQLEARN_PORT $MARIADB_PORT "$COUNT" "$seed"
done
