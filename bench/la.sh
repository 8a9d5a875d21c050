#!/usr/bin/env bash
# Least squares by GD, DFP and BFGS as LA scripts, with redundancy
# elimination on and off, against the same algorithms written naively in
# numpy. Prints raw benchmark lines to bench/out/ and a markdown summary.
#
# usage: bench/la.sh [ROWS...]   (default 200000; COUNT=3 runs each,
# NUMPY_COUNT overrides it for numpy, NUMPY=0 skips numpy; HIGGS_RUNS
# runs of each HIGGS script are timed together, 50 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-3}
datasets=${SQLEARN_DATASETS:-$(cd .. && pwd)/shared/datasets}
mkdir -p bench/out
export CGO_LDFLAGS=-lopenblas SQLEARN_DATASETS="$datasets"
for rows in "${@:-200000}"; do
  out=bench/out/la-$rows.txt
  : >"$out"
  SQLEARN_LA_ROWS=$rows SQLEARN_LA_DATA=synthetic go test -tags openblas -run '^$' \
    -bench 'LeastSquares' -benchtime 1x -count "$count" -timeout 60m ./optimizer/ | tee -a "$out"
  # HIGGS does not depend on ROWS: run it with the first size only. A run
  # takes milliseconds, so each figure is the mean of HIGGS_RUNS of them.
  if [ "$rows" = "${1:-200000}" ]; then
    SQLEARN_LA_DATA=higgs go test -tags openblas -run '^$' -bench 'LeastSquares' \
      -benchtime "${HIGGS_RUNS:-50}x" -count "$count" -timeout 60m ./optimizer/ | tee -a "$out"
  fi
  if [ "${NUMPY:-1}" = 1 ]; then
    /usr/bin/python3 bench/la_numpy.py "$rows" "${NUMPY_COUNT:-$count}" "$datasets" | tee -a "$out"
  fi
  /usr/bin/python3 bench/la_summary.py <"$out"
done
