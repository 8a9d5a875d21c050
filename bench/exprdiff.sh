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

for p in mariadb-server mariadb-client python3-pymysql; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
	echo "installing $p" >&2
	apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$p" >/dev/null
done

cleanup() {
	[ -n "${SQLEARN_PID:-}" ] && kill "$SQLEARN_PID" 2>/dev/null || true
	[ -n "${MARIADB_PID:-}" ] && kill "$MARIADB_PID" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

wait_port() {
	for _ in $(seq 1 300); do
		mariadb -h 127.0.0.1 -P "$1" -u root -e 'SELECT 1' >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "server on port $1 did not come up" >&2
	exit 1
}

(cd "$ROOT" && make -s build)
"$ROOT/bin/sqlearn" serve --addr 127.0.0.1:$SQLEARN_PORT --data-dir "$WORK/sqlearn" --log-level warn 2>"$WORK/sqlearn.log" &
SQLEARN_PID=$!
mariadb-install-db --no-defaults --datadir="$WORK/mariadb" --user="$(id -un)" --auth-root-authentication-method=normal >/dev/null 2>&1
mariadbd --no-defaults --datadir="$WORK/mariadb" --port=$MARIADB_PORT --bind-address=127.0.0.1 \
	--socket="$WORK/mariadb.sock" --user="$(id -un)" --skip-name-resolve 2>"$WORK/mariadb.log" &
MARIADB_PID=$!
wait_port $SQLEARN_PORT
wait_port $MARIADB_PORT

for seed in $SEEDS; do
	echo "seed $seed:"
	/usr/bin/python3 "$ROOT/bench/exprdiff/exprdiff.py" $SQLEARN_PORT $MARIADB_PORT "$COUNT" "$seed"
done
