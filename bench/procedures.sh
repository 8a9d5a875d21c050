#!/usr/bin/env bash
# Times stored procedures in sqlearn and in MariaDB, in one run on this
# machine: a loop of N steps that only counts (each step one condition and
# one SET), a loop that inserts N rows in one transaction, a cursor over N
# rows that sums one column, and a loop of N steps that computes DECIMAL
# and text values (two SETs and a LIKE condition a step).
#
#   bench/procedures.sh [N] [RUNS]
#
# N defaults to 5000, RUNS to 3; prints each CALL's runs and the median
# seconds of each in each server, and their ratio. MariaDB runs with its
# default durable settings.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
N=${1:-5000}
RUNS=${2:-3}
need mariadb-server mariadb-client bc

SQLEARN_PORT=3421 MARIADB_PORT=3422
ROOT=$(pwd)
serve_both

CALLS=("CALL pb.spin($N)" "CALL pb.fill($N)" "CALL pb.summed(@s)" "CALL pb.vals($N)")
declare -A SECS
for name in sqlearn mariadb; do
	port=$SQLEARN_PORT
	[ $name = mariadb ] && port=$MARIADB_PORT
	sql() { mariadb -h 127.0.0.1 -P "$port" -u root -N -e "$1"; }
	sql "CREATE DATABASE pb; CREATE TABLE pb.t (id INT PRIMARY KEY, v INT); CREATE TABLE pb.f (id INT PRIMARY KEY, v INT)"
	seq 1 "$N" | awk 'BEGIN {printf "INSERT INTO pb.t VALUES "} {printf "%s(%d,%d)", (NR > 1 ? "," : ""), $1, $1 % 97} END {print ";"}' | mariadb -h 127.0.0.1 -P "$port" -u root
	mariadb -h 127.0.0.1 -P "$port" -u root <<'SQL'
DELIMITER //
CREATE PROCEDURE pb.spin(IN n INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO SET i = i + 1; END WHILE; END//
CREATE PROCEDURE pb.fill(IN n INT) BEGIN DECLARE i INT DEFAULT 0; DELETE FROM pb.f; START TRANSACTION; WHILE i < n DO SET i = i + 1; INSERT INTO pb.f VALUES (i, i * 2); END WHILE; COMMIT; END//
CREATE PROCEDURE pb.vals(IN n INT) BEGIN DECLARE i INT DEFAULT 0; DECLARE d DECIMAL(12,2) DEFAULT 0; DECLARE s VARCHAR(20) DEFAULT ''; WHILE i < n DO SET i = i + 1; SET d = d + 0.25; SET s = RIGHT(CONCAT(s, CHAR(97 + i MOD 26)), 10); IF s LIKE '%zz%' THEN SET d = d - 1; END IF; END WHILE; SELECT d, s; END//
CREATE PROCEDURE pb.summed(OUT total INT) BEGIN DECLARE done INT DEFAULT 0; DECLARE x INT; DECLARE c CURSOR FOR SELECT v FROM pb.t; DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1; SET total = 0; OPEN c; l: LOOP FETCH c INTO x; IF done THEN LEAVE l; END IF; SET total = total + x; END LOOP; CLOSE c; END//
SQL
	for i in "${!CALLS[@]}"; do
		times=()
		for _ in $(seq 1 "$RUNS"); do
			start=$(date +%s.%N)
			sql "${CALLS[$i]}"
			times+=("$(echo "$(date +%s.%N) - $start" | bc)")
		done
		echo "$name, ${CALLS[$i]}: runs (s) ${times[*]}"
		SECS[$name,$i]=$(printf '%s\n' "${times[@]}" | median)
	done
	[ "$(sql 'SELECT COUNT(*), SUM(v) FROM pb.f')" = "$N	$((N * (N + 1)))" ] || { echo "$name: pb.f is not what fill writes" >&2; exit 1; }
	sql "CALL pb.summed(@s); SELECT @s"
done
echo
printf '%-30s %9s %9s %7s\n' "N = $N" sqlearn mariadb ratio
for i in "${!CALLS[@]}"; do
	printf '%-30s %9.3f %9.3f %7.2f\n' "${CALLS[$i]}" "${SECS[sqlearn,$i]}" "${SECS[mariadb,$i]}" "$(echo "${SECS[sqlearn,$i]} / ${SECS[mariadb,$i]}" | bc -l)"
done
