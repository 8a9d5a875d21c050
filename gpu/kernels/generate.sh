#!/bin/sh
# Regenerates kernels.ptx from kernels.cu. Needs nvcc (Debian:
# nvidia-cuda-toolkit); building sqlearn does not. compute_60 keeps the PTX
# loadable on every GPU from Pascal on; the driver JIT-compiles it for the
# card it runs on. -fmad=false keeps a*b+c as two roundings, as on the CPU.
set -eu
cd "$(dirname "$0")"
nvcc -ptx -arch=compute_60 -fmad=false -O3 -o kernels.ptx kernels.cu
# Check the PTX assembles for the oldest and newest targets we expect.
for sm in sm_60 sm_90; do
	ptxas -arch=$sm -o /dev/null kernels.ptx
done
