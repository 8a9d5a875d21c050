#!/usr/bin/env bash
# Times MIN and MAX of a table's key column, and MAX of another column,
# on two builds of sqlearn side by side, to measure a change between them.
#
#   bench/keyagg-ab.sh BEFORE_BIN AFTER_BIN [ROWS] [RUNS]
#
# Starts each binary on a loopback port with a fresh data dir, loads the
# join benchmark's table a (ROWS rows, default 300000) into both, runs
# each query RUNS times (default 9) on the two in turn, the first of each
# pair alternating, and prints the median seconds of each build and
# after / before. Both must answer alike.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${3:-300000}
RUNS=${4:-9}
need mariadb-client bc

PORTS=(3435 3436)
ab_join_builds "$1" "$2" "$ROWS" "${PORTS[@]}"

printf '%-100s %9s %9s %7s\n' "query (a: $ROWS rows)" before after ratio
for q in "SELECT MAX(id) FROM a" "SELECT MIN(id) FROM a" "SELECT MAX(g) FROM a"; do
	ab_query "${PORTS[@]}" jb "$RUNS" "$q"
done
