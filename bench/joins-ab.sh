#!/usr/bin/env bash
# Times the join benchmark's queries (bench/joins.sh) on two builds of
# sqlearn side by side, to measure a change between them.
#
#   bench/joins-ab.sh BEFORE_BIN AFTER_BIN [ROWS] [RUNS]
#
# Starts each binary on a loopback port with a fresh data dir, loads the
# same tables into both (ROWS rows in a, default 100000), runs each query
# RUNS times (default 9) on the two in turn, the first of each pair
# alternating, and prints the median seconds of each build and after /
# before. Both must answer alike.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ROWS=${3:-100000}
RUNS=${4:-9}
need mariadb-client bc

PORTS=(3433 3434)
ab_join_builds "$1" "$2" "$ROWS" "${PORTS[@]}"

printf '%-100s %9s %9s %7s\n' "query (a: $ROWS rows, b: $((2 * ROWS)))" before after ratio
for q in "${JOIN_QUERIES[@]}"; do
	ab_query "${PORTS[@]}" jb "$RUNS" "$q"
done
