#!/usr/bin/env bash
# Times joins and subqueries (semi and anti joins from EXISTS, IN, NOT
# EXISTS and NOT IN, an inner join by key and one on text) in sqlearn and
# in MariaDB, in one run on this machine, and checks that both answer
# alike.
#
#   bench/joins.sh [ROWS] [RUNS]
#
# Loads a table a of ROWS rows (default 100000) and a table b of twice as
# many, whose aid refers to a's id (one in fifty NULL), into each server
# from two CSVs, then runs each query below RUNS times (default 3) and
# prints the median seconds of each in each server and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${1:-100000}
RUNS=${2:-3}
need mariadb-server mariadb-client bc

SQLEARN_PORT=3421 MARIADB_PORT=3422
ROOT=$(pwd)
serve_both
join_tables "$WORK" "$ROWS"

declare -A SECS ANSWER
for name in sqlearn mariadb; do
	port=$SQLEARN_PORT
	[ $name = mariadb ] && port=$MARIADB_PORT
	sql() { mariadb -h 127.0.0.1 -P "$port" -u root --local-infile=1 -N -e "$1"; }
	load_join_tables "$port" "$WORK"
	for i in "${!JOIN_QUERIES[@]}"; do
		times=()
		for _ in $(seq 1 "$RUNS"); do
			start=$(date +%s.%N)
			ANSWER[$name,$i]=$(sql "USE jb; ${JOIN_QUERIES[$i]}")
			times+=("$(echo "$(date +%s.%N) - $start" | bc)")
		done
		echo "$name, ${JOIN_QUERIES[$i]}: ${ANSWER[$name,$i]}; runs (s) ${times[*]}"
		SECS[$name,$i]=$(printf '%s\n' "${times[@]}" | median)
	done
done
echo
printf '%-100s %9s %9s %7s\n' "query (a: $ROWS rows, b: $((2 * ROWS)))" sqlearn mariadb ratio
for i in "${!JOIN_QUERIES[@]}"; do
	[ "${ANSWER[sqlearn,$i]}" = "${ANSWER[mariadb,$i]}" ] || echo "answers differ: ${ANSWER[sqlearn,$i]} against ${ANSWER[mariadb,$i]}" >&2
	printf '%-100s %9.3f %9.3f %7.2f\n' "${JOIN_QUERIES[$i]}" "${SECS[sqlearn,$i]}" "${SECS[mariadb,$i]}" "$(echo "${SECS[sqlearn,$i]} / ${SECS[mariadb,$i]}" | bc -l)"
done
