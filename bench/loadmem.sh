#!/usr/bin/env bash
# Measures the memory a LOAD DATA of one large file takes: the server's
# peak resident memory (VmHWM) over one load of the CSV loaddata.sh
# writes, on a fresh data dir, and the time the load took.
#
#   bench/loadmem.sh [ROWS] [RUNS]
#
# ROWS defaults to 1000000, RUNS (fresh servers, one load each) to 3.
# SQLEARN_BIN names the server binary to measure (default bin/sqlearn,
# built first); GOGC and GOMEMLIMIT reach the server as set.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${1:-1000000}
RUNS=${2:-3}
need mariadb-client bc
BIN=${SQLEARN_BIN:-}
if [ -z "$BIN" ]; then
	make -s build
	BIN=bin/sqlearn
fi
WORK=$(mktemp -d)
PID=
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
awk -v n="$ROWS" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,%d,\"name %d, the %dth\",%d.%02d,2024-%02d-%02d\n", i, i * 7 % 1000, i, i, i % 1000, i % 100, i % 12 + 1, i % 28 + 1 }' >"$WORK/rows.csv"
PORT=3419
for run in $(seq 1 "$RUNS"); do
	rm -rf "$WORK/data"
	"$BIN" serve --addr 127.0.0.1:$PORT --data-dir "$WORK/data" --log-level error >"$WORK/server.log" 2>&1 &
	PID=$!
	wait_port $PORT
	sql() { mariadb -h 127.0.0.1 -P $PORT -u root --local-infile=1 -N -e "$1"; }
	sql "SET GLOBAL local_infile = 1; CREATE DATABASE ld; CREATE TABLE ld.t (id INT PRIMARY KEY, n INT, name VARCHAR(40), amount DECIMAL(8,2), day DATE)"
	before=$(awk '/VmRSS/ {print $2}' /proc/$PID/status)
	start=$(date +%s.%N)
	sql "LOAD DATA LOCAL INFILE '$WORK/rows.csv' INTO TABLE ld.t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	[ "$(sql 'SELECT COUNT(*) FROM ld.t')" = "$ROWS" ] || { echo "loaded the wrong number of rows" >&2; exit 1; }
	peak=$(awk '/VmHWM/ {print $2}' /proc/$PID/status)
	printf 'run %d: %.2f s, resident before %d MB, peak %d MB, %.0f bytes a row over the start\n' \
		"$run" "$secs" $((before / 1024)) $((peak / 1024)) "$(echo "($peak - $before) * 1024 / $ROWS" | bc -l)"
	kill $PID
	wait $PID 2>/dev/null || true
	PID=
done
