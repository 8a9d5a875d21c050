#!/bin/sh
# Times training through CALL sys.ML_TRAIN against scikit-learn's fit on the
# same rows in the same run (medians of --repeats runs, default 3), compares
# held-out quality through ML_SCORE, then measures ML_PREDICT_TABLE
# throughput and where its time goes. Needs the shared datasets
# (SQLEARN_DATASETS) and /usr/bin/python3 with scikit-learn (SQLEARN_PYTHON).
# Usage: bench/ml-sql.sh [-repeats N] [-predict-rows N] [-only DATASET|ALGORITHM]
#        [-predict-only] [-raft-log bolt|wal] [-cpuprofile FILE]
set -eu
cd "$(dirname "$0")/.."
# OpenBLAS when libopenblas is installed, as the server is built (Makefile).
tags=
if [ -e /usr/lib/x86_64-linux-gnu/libopenblas.so ] || ldconfig -p 2>/dev/null | grep -q libopenblas.so; then
	tags="-tags openblas"
	export CGO_LDFLAGS=-lopenblas
fi
exec go run $tags ./bench/ml-sqlbench "$@"
