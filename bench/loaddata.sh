#!/usr/bin/env bash
# Times LOAD DATA LOCAL INFILE of one CSV file into sqlearn and into
# MariaDB, in one run on this machine.
#
#   bench/loaddata.sh [ROWS] [RUNS]
#
# Writes a CSV of ROWS rows (default 1000000: an integer key, an integer,
# a quoted text with a comma in it, a DECIMAL and a DATE), starts the
# built sqlearn and a MariaDB server with its default durable settings on
# loopback ports with fresh data dirs, loads the file RUNS times into each
# (default 3; the table is emptied between runs), and prints the median
# seconds and rows per second of each and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${1:-1000000}
RUNS=${2:-3}
need mariadb-server mariadb-client bc

SQLEARN_PORT=3417 MARIADB_PORT=3418
ROOT=$(pwd)
serve_both
load_csv "$WORK/rows.csv" "$ROWS"

LOAD="LOAD DATA LOCAL INFILE '$WORK/rows.csv' INTO TABLE ld.t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"

declare -A SECS
for name in sqlearn mariadb; do
	port=$SQLEARN_PORT
	[ $name = mariadb ] && port=$MARIADB_PORT
	sql() { mariadb -h 127.0.0.1 -P "$port" -u root --local-infile=1 -N -e "$1"; }
	sql "SET GLOBAL local_infile = 1; CREATE DATABASE ld; $LOAD_TABLE"
	times=()
	for _ in $(seq 1 "$RUNS"); do
		sql "TRUNCATE ld.t"
		start=$(date +%s.%N)
		sql "$LOAD"
		times+=("$(echo "$(date +%s.%N) - $start" | bc)")
		[ "$(sql 'SELECT COUNT(*) FROM ld.t')" = "$ROWS" ] || { echo "$name loaded the wrong number of rows" >&2; exit 1; }
	done
	echo "$name runs (s): ${times[*]}"
	SECS[$name]=$(printf '%s\n' "${times[@]}" | median)
done
echo
printf '%-8s %10s %12s\n' server seconds rows/s
for name in sqlearn mariadb; do
	printf '%-8s %10.2f %12.0f\n' $name "${SECS[$name]}" "$(echo "$ROWS / ${SECS[$name]}" | bc -l)"
done
printf 'sqlearn / mariadb time: %.2f\n' "$(echo "${SECS[sqlearn]} / ${SECS[mariadb]}" | bc -l)"
