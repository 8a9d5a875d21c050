#!/usr/bin/env bash
# Times ALTER TABLE statements that rebuild a table (a new primary key, a
# column computed for every row, several clauses with a MODIFY) in
# sqlearn and in MariaDB, in one run on this machine.
#
#   bench/alter.sh [ROWS] [RUNS]
#
# Loads a table without a primary key of ROWS rows (default 200000: an
# integer, an integer, a text) into each server from one CSV, then runs
# each ALTER below RUNS times (default 3), each time on a fresh copy of
# the table, and prints the median seconds of each in each server and
# their ratio. MariaDB runs with its default durable settings.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${1:-200000}
RUNS=${2:-3}
need mariadb-server mariadb-client bc

SQLEARN_PORT=3419 MARIADB_PORT=3420
ROOT=$(pwd)
serve_both
awk -v n="$ROWS" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,%d,name %d\n", i, i * 7 % 1000, i }' >"$WORK/rows.csv"

ALTERS=(
	"ADD PRIMARY KEY (id)"
	"ADD COLUMN c INT DEFAULT (n + 1)"
	"ADD COLUMN c INT DEFAULT (n + 1), MODIFY name VARCHAR(40) NOT NULL"
)

declare -A SECS
for name in sqlearn mariadb; do
	port=$SQLEARN_PORT
	[ $name = mariadb ] && port=$MARIADB_PORT
	sql() { mariadb -h 127.0.0.1 -P "$port" -u root --local-infile=1 -N -e "$1"; }
	sql "SET GLOBAL local_infile = 1; CREATE DATABASE al; CREATE TABLE al.src (id INT NOT NULL, n INT, name VARCHAR(20))"
	sql "LOAD DATA LOCAL INFILE '$WORK/rows.csv' INTO TABLE al.src FIELDS TERMINATED BY ','"
	for i in "${!ALTERS[@]}"; do
		times=()
		for _ in $(seq 1 "$RUNS"); do
			sql "DROP TABLE IF EXISTS al.t; CREATE TABLE al.t (id INT NOT NULL, n INT, name VARCHAR(20)); INSERT INTO al.t SELECT * FROM al.src"
			start=$(date +%s.%N)
			sql "ALTER TABLE al.t ${ALTERS[$i]}"
			times+=("$(echo "$(date +%s.%N) - $start" | bc)")
			[ "$(sql 'SELECT COUNT(*) FROM al.t')" = "$ROWS" ] || { echo "$name lost rows" >&2; exit 1; }
		done
		echo "$name, ALTER TABLE ... ${ALTERS[$i]}: runs (s) ${times[*]}"
		SECS[$name,$i]=$(printf '%s\n' "${times[@]}" | median)
	done
done
echo
printf '%-70s %9s %9s %7s\n' "ALTER TABLE al.t ($ROWS rows)" sqlearn mariadb ratio
for i in "${!ALTERS[@]}"; do
	printf '%-70s %9.2f %9.2f %7.2f\n' "${ALTERS[$i]}" "${SECS[sqlearn,$i]}" "${SECS[mariadb,$i]}" "$(echo "${SECS[sqlearn,$i]} / ${SECS[mariadb,$i]}" | bc -l)"
done
