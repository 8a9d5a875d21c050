#!/usr/bin/env bash
# Compare sqlearn with MariaDB under sysbench on this machine, in one run.
#
#   bench/sysbench.sh [seconds-per-test] [threads] [repeats]
#
# Starts sqlearn (durable: every commit fsynced through the Raft log) and a
# MariaDB server with its default durable settings
# (innodb_flush_log_at_trx_commit=1), both on loopback ports in a temporary
# directory, runs oltp_point_select, oltp_insert and oltp_read_only against
# each for the same duration and thread count, and prints the median QPS of
# the repeats and the sqlearn/MariaDB ratio. sqlearn runs once per log
# storage in RAFT_LOGS (default "bolt wal": --raft-log bolt, the default,
# and wal), each on a fresh data dir. TESTS narrows the sysbench tests run
# and their order (default "oltp_point_select oltp_read_only oltp_insert").
set -euo pipefail

SECS=${1:-20}
THREADS=${2:-4}
REPEATS=${3:-3}
TESTS=${TESTS:-oltp_point_select oltp_read_only oltp_insert}
TABLE_SIZE=${TABLE_SIZE:-10000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
SQLEARN_PORT=${SQLEARN_PORT:-13306}
MARIADB_PORT=${MARIADB_PORT:-13307}
RAFT_LOGS=${RAFT_LOGS:-bolt wal}

. "$(dirname "$0")/lib.sh"
need sysbench mariadb-server mariadb-client

cleanup() {
	for pid in ${SQLEARN_PIDS:-}; do kill "$pid" 2>/dev/null || true; done
	[ -n "${MARIADB_PID:-}" ] && kill "$MARIADB_PID" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

(cd "$ROOT" && make -s build)
declare -A PORT
SERVERS=""
port=$SQLEARN_PORT
for log in $RAFT_LOGS; do
	"$ROOT/bin/sqlearn" serve --addr 127.0.0.1:$port --data-dir "$WORK/sqlearn-$log" --raft-log "$log" \
		--log-level warn 2>"$WORK/sqlearn-$log.log" &
	SQLEARN_PIDS="${SQLEARN_PIDS:-} $!"
	PORT[sqlearn-$log]=$port
	SERVERS+="sqlearn-$log "
	port=$((port + 2))
done
PORT[mariadb]=$MARIADB_PORT

start_mariadb "$WORK" $MARIADB_PORT
for name in $SERVERS mariadb; do wait_port "${PORT[$name]}"; done
mariadb -h 127.0.0.1 -P $MARIADB_PORT -u root -e "SELECT @@innodb_flush_log_at_trx_commit AS flush_at_commit, @@version" >&2

sb() { # server-port test action
	sysbench "$2" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$1" --mysql-user=root \
		--mysql-db=sbtest --tables=1 --table-size="$TABLE_SIZE" --threads="$THREADS" --time="$SECS" \
		--report-interval=0 "$3"
}

qps() { sed -n 's/.*queries: .*(\([0-9.]*\) per sec.).*/\1/p'; }

declare -A RESULT
for name in $SERVERS mariadb; do
	port=${PORT[$name]}
	mariadb -h 127.0.0.1 -P $port -u root -e "DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest"
	sb $port oltp_point_select prepare >/dev/null
	for test in $TESTS; do
		runs=""
		for _ in $(seq 1 "$REPEATS"); do
			runs+="$(sb $port $test run | qps)"$'\n'
		done
		RESULT[$name,$test]=$(printf '%s' "$runs" | median)
		echo "$name $test runs: $(printf '%s' "$runs" | tr '\n' ' ')" >&2
	done
done

printf '\nsysbench %s s per run, %s threads, table size %s, median of %s runs (QPS)\n' "$SECS" "$THREADS" "$TABLE_SIZE" "$REPEATS"
printf '%-20s %-14s %12s %12s %8s\n' test server QPS mariadb ratio
for test in $TESTS; do
	m=${RESULT[mariadb,$test]}
	for name in $SERVERS; do
		s=${RESULT[$name,$test]}
		printf '%-20s %-14s %12.1f %12.1f %8.3f\n' "$test" "$name" "$s" "$m" "$(echo "$s / $m" | bc -l)"
	done
done
