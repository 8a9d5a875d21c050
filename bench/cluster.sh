#!/usr/bin/env bash
# Compare a 3-node sqlearn cluster with a single node under sysbench.
#
#   bench/cluster.sh [seconds-per-test] [threads] [repeats]
#
# Runs oltp_insert and oltp_point_select against: one node; a three-node
# cluster with every client on the leader; and the same cluster with
# clients spread over all three nodes (writes on followers are forwarded to
# the leader). Every node fsyncs its log; the cluster acknowledges a write
# once a quorum has it. Prints median QPS and p95 latency of the repeats and
# the 3-node/1-node ratio. RAFT_LOG picks every node's log storage
# (--raft-log: bolt, the default, or wal).
set -euo pipefail

SECS=${1:-20}
THREADS=${2:-4}
REPEATS=${3:-3}
RAFT_LOG=${RAFT_LOG:-bolt}
TABLE_SIZE=${TABLE_SIZE:-10000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/lib.sh"
cluster_bench
sb() { # hosts ports test action
	sysbench "$3" --db-driver=mysql --mysql-host="$1" --mysql-port="$2" --mysql-user=root \
		--mysql-db=sbtest --tables=1 --table-size="$TABLE_SIZE" --threads="$THREADS" --time="$SECS" \
		--report-interval=0 --percentile=95 "$4"
}
qps() { sed -n 's/.*queries: .*(\([0-9.]*\) per sec.).*/\1/p'; }
p95() { sed -n 's/.*95th percentile: *\([0-9.]*\).*/\1/p'; }

declare -A QPS LAT
measure() { # label hosts ports
	for test in oltp_insert oltp_point_select; do
		local q="" l=""
		for _ in $(seq 1 "$REPEATS"); do
			out=$(sb "$2" "$3" $test run)
			q+="$(echo "$out" | qps)"$'\n'
			l+="$(echo "$out" | p95)"$'\n'
		done
		QPS[$1,$test]=$(printf '%s' "$q" | median)
		LAT[$1,$test]=$(printf '%s' "$l" | median)
		echo "$1 $test qps: $(printf '%s' "$q" | tr '\n' ' ') p95 ms: $(printf '%s' "$l" | tr '\n' ' ')" >&2
	done
}
prepare() { # port
	mariadb -h 127.0.0.1 -P "$1" -u root -e "DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest"
	sb 127.0.0.1 "$1" oltp_point_select prepare >/dev/null
}

# One node.
start_node single 23306 23406
prepare 23306
measure one-node 127.0.0.1 23306
kill "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true; PIDS=()

# Three nodes.
start_node n1 23311 23411
start_node n2 23312 23412 23411
start_node n3 23313 23413 23411
prepare 23311
leader_port=$(for p in 23311 23312 23313; do
	id=$(mariadb -N -h 127.0.0.1 -P $p -u root -e "SELECT node_id FROM sys.cluster_members WHERE role='leader'" 2>/dev/null)
	[ -n "$id" ] && { case $id in n1) echo 23311;; n2) echo 23312;; n3) echo 23313;; esac; break; }
done)
measure three-leader 127.0.0.1 "$leader_port"
measure three-spread 127.0.0.1,127.0.0.1,127.0.0.1 23311,23312,23313

printf '\nsysbench %s s per run, %s threads, table size %s, median of %s runs\n' "$SECS" "$THREADS" "$TABLE_SIZE" "$REPEATS"
printf '%-20s %-14s %10s %10s %14s\n' test setup QPS p95_ms ratio_to_1node
for test in oltp_insert oltp_point_select; do
	base=${QPS[one-node,$test]}
	for setup in one-node three-leader three-spread; do
		q=${QPS[$setup,$test]}
		printf '%-20s %-14s %10.1f %10.2f %14.3f\n' "$test" "$setup" "$q" "${LAT[$setup,$test]}" "$(echo "$q / $base" | bc -l)"
	done
done
