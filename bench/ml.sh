#!/bin/sh
# Times sqlearn's ml training against scikit-learn on the same rows in the
# same run (medians of --repeats fits, default 3), prints quality side by
# side, then linear batch-prediction throughput. Needs the shared datasets
# (SQLEARN_DATASETS) and /usr/bin/python3 with scikit-learn (SQLEARN_PYTHON).
# Usage: bench/ml.sh [-repeats N] [-only ALGORITHM|DATASET|predict]
set -eu
cd "$(dirname "$0")/.."
exec go run ./bench/mlbench "$@"
