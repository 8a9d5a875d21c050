#!/bin/sh
# Hybrid evaluation benchmark (docs/benchmarks-hybrid.md): PageRank on
# wiki-Vote and soc-Slashdot0902 at three tolerances in full, incremental
# and hybrid mode, blocks touched with and without reorganisation, GNMF on
# MovieLens; networkx and a scipy power iteration in the same run; and the
# SQL load of soc-Slashdot0902 through LOAD_EDGES.
#
#   bench/pagerank.sh [runs]      (default 3; medians are reported)
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-3}
DATASETS=${SQLEARN_DATASETS:-$(cd .. && pwd)/shared/datasets}
export SQLEARN_DATASETS="$DATASETS"
echo "== Go runtime (median of $RUNS)"
SQLEARN_BENCH_HYBRID=1 SQLEARN_BENCH_RUNS=$RUNS go test -count=1 -v -run TestBenchmarkReport ./optimizer/hybrid | grep -v -E "^(=== RUN|--- PASS|PASS)"
echo "== networkx and scipy (median of $RUNS)"
/usr/bin/python3 bench/pagerank_ref.py "$DATASETS" "$RUNS"
echo "== SQL: LOAD_EDGES and ML_PAGERANK on soc-Slashdot0902"
SQLEARN_BENCH_HYBRID=1 go test -count=1 -run TestSlashdotSQL -v ./udf | grep -E 'graph_test|^(ok|FAIL|---)'
