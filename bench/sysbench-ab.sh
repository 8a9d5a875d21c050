#!/usr/bin/env bash
# Runs one sysbench test against two builds of sqlearn side by side, to
# measure a change between them.
#
#   bench/sysbench-ab.sh BEFORE_BIN AFTER_BIN [TEST] [SECONDS] [THREADS] [REPEATS]
#
# Starts each binary on a loopback port with a fresh data dir (serve_builds),
# prepares sysbench's table in both (TABLE_SIZE rows, default 10000), runs
# TEST (default oltp_read_only) for SECONDS (default 10) with THREADS
# clients (default 4) REPEATS times (default 3) on the two in turn, and
# prints the median queries per second of each build and after / before.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
TEST=${3:-oltp_read_only}
SECS=${4:-10}
THREADS=${5:-4}
REPEATS=${6:-3}
TABLE_SIZE=${TABLE_SIZE:-10000}
need sysbench mariadb-client bc

PORTS=(3445 3446)
serve_builds "$1" "$2" "${PORTS[@]}"
sb() { # port action
	sysbench "$TEST" --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$1" --mysql-user=root \
		--mysql-db=sbtest --tables=1 --table-size="$TABLE_SIZE" --threads="$THREADS" --time="$SECS" \
		--report-interval=0 "$2"
}
for p in "${PORTS[@]}"; do
	wait_port "$p"
	mariadb -h 127.0.0.1 -P "$p" -u root -e "CREATE DATABASE sbtest"
	sb "$p" prepare >/dev/null
done
declare -A QPS
for r in $(seq "$REPEATS"); do
	for i in 0 1; do
		q=$(sb "${PORTS[$i]}" run | awk '/queries:/ { gsub(/[(]/, "", $3); print $3 }')
		echo "run $r, $([ $i = 0 ] && echo before || echo after): $q queries/s" >&2
		QPS[$i]+="$q "
	done
done
before=$(echo "${QPS[0]}" | tr ' ' '\n' | grep . | median)
after=$(echo "${QPS[1]}" | tr ' ' '\n' | grep . | median)
printf '%s, %s threads, %s s: before %.0f, after %.0f queries/s, after / before %.3f\n' \
	"$TEST" "$THREADS" "$SECS" "$before" "$after" "$(echo "$after / $before" | bc -l)"
