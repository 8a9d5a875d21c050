#!/bin/sh
# Times sqlearn's ml training against scikit-learn on the same rows in the
# same run (medians of --repeats fits, default 3), prints quality side by
# side, then linear batch-prediction throughput. Needs the shared datasets
# (SQLEARN_DATASETS) and /usr/bin/python3 with scikit-learn (SQLEARN_PYTHON).
# Usage: bench/ml.sh [-repeats N] [-only ALGORITHM|DATASET|predict]
set -eu
cd "$(dirname "$0")/.."
# OpenBLAS when libopenblas is installed, as the server is built (Makefile).
tags=
if [ -e /usr/lib/x86_64-linux-gnu/libopenblas.so ] || ldconfig -p 2>/dev/null | grep -q libopenblas.so; then
	tags="-tags openblas"
	export CGO_LDFLAGS=-lopenblas
fi
exec go run $tags ./bench/mlbench "$@"
