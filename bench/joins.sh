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
awk -v n="$ROWS" 'BEGIN { srand(1); for (i = 1; i <= n; i++) printf "%d,%d,w%d\n", i, int(rand() * 100), int(rand() * 1000) }' >"$WORK/a.csv"
awk -v n="$ROWS" 'BEGIN { srand(2); for (i = 1; i <= 2 * n; i++) { aid = i % 50 == 0 ? "\\N" : int(rand() * 1.2 * n) + 1; printf "%d,%s,%d\n", i, aid, int(rand() * 10) } }' >"$WORK/b.csv"

QUERIES=(
	"SELECT COUNT(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.aid = a.id)"
	"SELECT COUNT(*) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.aid = a.id)"
	"SELECT COUNT(*) FROM a WHERE a.id IN (SELECT aid FROM b WHERE v < 3)"
	"SELECT COUNT(*) FROM a WHERE a.id NOT IN (SELECT aid FROM b WHERE v < 3 AND aid IS NOT NULL)"
	"SELECT COUNT(*) FROM a WHERE a.id NOT IN (SELECT aid FROM b WHERE v < 3)"
	"SELECT COUNT(*) FROM a JOIN b ON a.id = b.aid"
	"SELECT COUNT(*) FROM a JOIN a AS a2 ON a.s = a2.s WHERE a.id < 3000"
	"SELECT COUNT(*) FROM a WHERE a.g IN (SELECT v FROM b)"
)
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A SECS ANSWER
for name in sqlearn mariadb; do
	port=$SQLEARN_PORT
	[ $name = mariadb ] && port=$MARIADB_PORT
	sql() { mariadb -h 127.0.0.1 -P "$port" -u root --local-infile=1 -N -e "$1"; }
	sql "SET GLOBAL local_infile = 1; CREATE DATABASE jb"
	sql "CREATE TABLE jb.a (id INT PRIMARY KEY, g INT, s VARCHAR(10), KEY ig (g)); CREATE TABLE jb.b (id INT PRIMARY KEY, aid INT, v INT, KEY iaid (aid))"
	sql "LOAD DATA LOCAL INFILE '$WORK/a.csv' INTO TABLE jb.a FIELDS TERMINATED BY ','"
	sql "LOAD DATA LOCAL INFILE '$WORK/b.csv' INTO TABLE jb.b FIELDS TERMINATED BY ','"
	sql "ANALYZE TABLE jb.a, jb.b" >/dev/null
	for i in "${!QUERIES[@]}"; do
		times=()
		for _ in $(seq 1 "$RUNS"); do
			start=$(date +%s.%N)
			ANSWER[$name,$i]=$(sql "USE jb; ${QUERIES[$i]}")
			times+=("$(echo "$(date +%s.%N) - $start" | bc)")
		done
		echo "$name, ${QUERIES[$i]}: ${ANSWER[$name,$i]}; runs (s) ${times[*]}"
		SECS[$name,$i]=$(printf '%s\n' "${times[@]}" | median)
	done
done
echo
printf '%-100s %9s %9s %7s\n' "query (a: $ROWS rows, b: $((2 * ROWS)))" sqlearn mariadb ratio
for i in "${!QUERIES[@]}"; do
	[ "${ANSWER[sqlearn,$i]}" = "${ANSWER[mariadb,$i]}" ] || echo "answers differ: ${ANSWER[sqlearn,$i]} against ${ANSWER[mariadb,$i]}" >&2
	printf '%-100s %9.3f %9.3f %7.2f\n' "${QUERIES[$i]}" "${SECS[sqlearn,$i]}" "${SECS[mariadb,$i]}" "$(echo "${SECS[sqlearn,$i]} / ${SECS[mariadb,$i]}" | bc -l)"
done
