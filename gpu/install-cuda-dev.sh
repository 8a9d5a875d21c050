#!/bin/sh
# Installs Debian's CUDA development headers and libraries (non-free
# component) so that `go vet -tags cuda` and `go test -tags cuda -c` can
# compile the CUDA device on machines without a GPU. Safe to run again:
# it adds non-free only when missing and apt-get skips installed packages.
# Must run as root.
set -eu

SOURCES=/etc/apt/sources.list.d/debian.sources
PKGS="nvidia-cuda-dev"

if [ "$(id -u)" -ne 0 ]; then
	echo "install-cuda-dev: must run as root" >&2
	exit 1
fi

if [ -e /usr/include/cuda.h ] && [ -e /usr/include/cublas_v2.h ]; then
	echo "install-cuda-dev: CUDA headers already present"
	exit 0
fi

# libcuda1 (non-free) depends on nvidia-support, which Debian ships in
# contrib, so both components are needed. The deb822 file has one
# Components line per stanza; each missing component is appended, keeping
# whatever is already there.
for comp in contrib non-free; do
	if [ -f "$SOURCES" ]; then
		sed -i -E "/^Components:/{/(^|[[:space:]])$comp([[:space:]]|\$)/!s/\$/ $comp/}" "$SOURCES"
	elif [ -f /etc/apt/sources.list ]; then
		# Older one-line format.
		sed -i -E "/^deb /{/(^|[[:space:]])$comp([[:space:]]|\$)/!s/\$/ $comp/}" /etc/apt/sources.list
	fi
done

export DEBIAN_FRONTEND=noninteractive
apt-get update
# nvidia-cuda-dev pulls libcuda1 and the cuBLAS runtime; recommends
# (the full toolkit, nvcc, docs) are not needed to compile cgo bindings.
apt-get install -y --no-install-recommends $PKGS

test -e /usr/include/cuda.h
echo "install-cuda-dev: done"
