#!/usr/bin/env bash
# Times LOAD DATA LOCAL INFILE (the file bench/loaddata.sh loads) on two
# builds of sqlearn side by side, to measure a change between them.
#
#   bench/loaddata-ab.sh BEFORE_BIN AFTER_BIN [ROWS] [RUNS]
#
# Starts each binary on a loopback port with a fresh data dir, loads the
# same CSV of ROWS rows (default 300000) RUNS times into each (default 9;
# the table is emptied between runs), the first of each pair alternating,
# and prints the median seconds of each build and after / before.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${3:-300000}
RUNS=${4:-9}
need mariadb-client bc

PORTS=(3435 3436)
serve_builds "$1" "$2" "${PORTS[@]}"
load_csv "$WORK/rows.csv" "$ROWS"
LOAD="LOAD DATA LOCAL INFILE '$WORK/rows.csv' INTO TABLE ld.t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"'"
sql() { mariadb -h 127.0.0.1 -P "$1" -u root --local-infile=1 -N -e "$2"; }
for i in 0 1; do
	wait_port "${PORTS[$i]}"
	sql "${PORTS[$i]}" "SET GLOBAL local_infile = 1; CREATE DATABASE ld; $LOAD_TABLE"
done

times=("" "")
for r in $(seq 1 "$RUNS"); do
	for i in $(( r % 2 )) $(( (r + 1) % 2 )); do
		sql "${PORTS[$i]}" "TRUNCATE ld.t"
		start=$(date +%s.%N)
		sql "${PORTS[$i]}" "$LOAD"
		times[$i]+="$(echo "$(date +%s.%N) - $start" | bc) "
		[ "$(sql "${PORTS[$i]}" 'SELECT COUNT(*) FROM ld.t')" = "$ROWS" ] || { echo "build $i loaded the wrong number of rows" >&2; exit 1; }
	done
done
echo "before runs (s): ${times[0]}"
echo "after runs (s):  ${times[1]}"
before=$(printf '%s\n' ${times[0]} | median)
after=$(printf '%s\n' ${times[1]} | median)
printf 'LOAD DATA of %d rows: before %.3f s, after %.3f s, after / before %.2f\n' "$ROWS" "$before" "$after" "$(echo "$after / $before" | bc -l)"
