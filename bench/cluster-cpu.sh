#!/usr/bin/env bash
# CPU time per insert of each server process: one node, then a three-node
# cluster with every client on the leader.
#
#   bench/cluster-cpu.sh [seconds-per-run] [threads] [runs]
#
# Reads each process's user+system CPU (/proc/PID/stat) and the machine's
# idle time (/proc/stat) around sysbench oltp_insert runs, and prints the
# inserts per second, the cores' idle share and the CPU milliseconds each
# process spent per insert. RAFT_LOG picks the log storage (bolt or wal).
set -euo pipefail

SECS=${1:-8}
THREADS=${2:-4}
RUNS=${3:-2}
RAFT_LOG=${RAFT_LOG:-bolt}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/lib.sh"
cluster_bench

sb() { # port action
	sysbench oltp_insert --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$1" --mysql-user=root \
		--mysql-db=sbtest --tables=1 --table-size=10000 --threads="$THREADS" --time="$SECS" \
		--report-interval=0 "$2"
}
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; } # clock ticks
idle() { awk '/^cpu /{print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9}' /proc/stat; }
hz=$(getconf CLK_TCK)
measure() { # label port
	local -A c0
	for p in "${PIDS[@]}"; do c0[$p]=$(cpu "$p"); done
	read -r i0 t0 < <(idle)
	local q
	q=$(sb "$2" run | sed -n 's/.*queries: .*(\([0-9.]*\) per sec.).*/\1/p')
	read -r i1 t1 < <(idle)
	local line n
	n=$(echo "$q * $SECS" | bc -l)
	line=$(printf '%-6s %9.1f inserts/s  idle %4.1f %%  ms per insert:' "$1" "$q" "$(echo "100 * ($i1 - $i0) / ($t1 - $t0)" | bc -l)")
	for p in "${PIDS[@]}"; do
		line+=$(printf ' %.3f' "$(echo "1000 * ($(cpu "$p") - ${c0[$p]}) / $hz / $n" | bc -l)")
	done
	echo "$line"
}
prepare() { # port
	mariadb -h 127.0.0.1 -P "$1" -u root -e "DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest"
	sb "$1" prepare >/dev/null
}

echo "log $RAFT_LOG, $THREADS threads, $SECS s per run"
start_node single 23506 23606
prepare 23506
for _ in $(seq 1 "$RUNS"); do measure one 23506; done
kill "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; PIDS=()

start_node n1 23511 23611
start_node n2 23512 23612 23611
start_node n3 23513 23613 23611
sleep 2
prepare 23511
echo "(three: the leader's, then each follower's)"
for _ in $(seq 1 "$RUNS"); do measure three 23511; done
