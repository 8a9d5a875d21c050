#!/bin/sh
# Times training through CALL sys.ML_TRAIN against scikit-learn's fit on the
# same rows in the same run (medians of --repeats runs, default 3), compares
# held-out quality through ML_SCORE, then measures ML_PREDICT_TABLE
# throughput and where its time goes. Needs the shared datasets
# (SQLEARN_DATASETS) and /usr/bin/python3 with scikit-learn (SQLEARN_PYTHON).
# Usage: bench/ml-sql.sh [-repeats N] [-predict-rows N]
set -eu
cd "$(dirname "$0")/.."
exec go run ./bench/ml-sqlbench "$@"
