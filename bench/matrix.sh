#!/bin/sh
# Matrix benchmarks: GEMM through the Go kernel and through SELECT MAT_MUL
# over a MySQL client connection against numpy's a @ b; sparse x dense on
# bcsstk13 and pushpull against scipy.sparse; MAT_FROM_QUERY load rate from
# a 1,000,000 x 47 table. Medians of repeated runs, and ratios.
#
#   bench/matrix.sh [reps] [load-rows]
#
# Builds with OpenBLAS when libopenblas is on the linker path. Needs Debian's
# python3-numpy and python3-scipy (/usr/bin/python3).
set -eu
cd "$(dirname "$0")/.."
reps=${1:-5}
rows=${2:-1000000}
sizes=512,1024,2048
k=64
datasets=${SQLEARN_DATASETS:-../shared/datasets}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tags=
if [ -e /usr/lib/x86_64-linux-gnu/libopenblas.so ] || ldconfig -p 2>/dev/null | grep -q libopenblas.so; then
	tags="-tags openblas"
	export CGO_LDFLAGS=-lopenblas
fi
go build $tags -o "$out/matrixbench" ./bench/matrixbench
"$out/matrixbench" -datasets "$datasets" -reps "$reps" -load-rows "$rows" -sizes "$sizes" -sp-cols "$k" >"$out/go.json"
# numpy gets OpenBLAS's own defaults, without machine-specific overrides.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/matrix_numpy.py "$datasets" "$reps" "$k" "$sizes" >"$out/py.json"
/usr/bin/python3 bench/matrix_report.py "$out/go.json" "$out/py.json"
