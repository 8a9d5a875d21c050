#!/bin/sh
# GPU device checks for sqlearn, in two halves:
#
#   bench/gpu-check.sh build [DIR]   on a build host with Go and CUDA headers
#                                    (gpu/install-cuda-dev.sh): writes
#                                    DIR/gpu.test (default bench/gpu-check.d)
#   bench/gpu-check.sh [DIR]         on the GPU machine, from the repository
#                                    root: runs DIR/gpu.test and CuPy
#
# The run checks every CUDA kernel against the CPU device, times DGEMM and
# SGEMM through the device and through CuPy in the same process tree, and
# reports the dispatcher's CPU/GPU crossover sizes. Results go to $OUT when
# set (else DIR/results). Exit status is non-zero if any check failed.
#
# The binary is linked here against CUDA 11.8 but must load beside other
# cuBLAS majors. Debian's libcublas.so.11 versions its symbols, which would
# pin the binary to that library, so the build links against a stub with
# the same function names, no symbol versions and the soname libcublas.so;
# the run points that name at whatever libcublas.so.N the GPU machine has.
# libcuda.so.1 is the driver's and keeps its name across versions.
set -eu

SIZES=${SQLEARN_GPU_GEMM_SIZES:-1024,2048,4096,8192,16384}

build() {
	dir=${1:-bench/gpu-check.d}
	test -e /usr/include/cuda.h || { echo "gpu-check: no CUDA headers; run gpu/install-cuda-dev.sh" >&2; exit 1; }
	real=$(ls /usr/lib/x86_64-linux-gnu/libcublas.so.[0-9]* 2>/dev/null | head -n1)
	test -n "$real" || { echo "gpu-check: libcublas not found" >&2; exit 1; }
	mkdir -p "$dir/stub"
	# One empty definition per exported function: only the names matter
	# to the linker.
	nm -D --defined-only "$real" | awk '$2 == "T" { sub(/@.*/, "", $3); print "void " $3 "(void) {}" }' | sort -u >"$dir/stub/cublas_stub.c"
	cc -shared -fPIC -Wl,-soname,libcublas.so -o "$dir/stub/libcublas.so" "$dir/stub/cublas_stub.c"
	# CGO_LDFLAGS comes before the package's own -L, so the stub wins.
	CGO_LDFLAGS="-L$(cd "$dir/stub" && pwd)" go test -tags cuda -c -o "$dir/gpu.test" ./gpu
	if readelf -d "$dir/gpu.test" | grep -q 'libcublas.so.11'; then
		echo "gpu-check: binary still names libcublas.so.11" >&2
		exit 1
	fi
	echo "gpu-check: built $dir/gpu.test ($(du -h "$dir/gpu.test" | cut -f1)); copy the repository with it to the GPU machine"
}

# find_libs sets LD_LIBRARY_PATH to the CUDA libraries of the Python
# packages (nvidia-*-cu1x wheels install them under site-packages/nvidia)
# and links libcublas.so to the newest libcublas.so.N found.
find_libs() {
	shim=$1
	mkdir -p "$shim"
	dirs=$(python3 - <<'PY' 2>/dev/null || true
import glob, os, site, sys
roots = set(site.getsitepackages() + [site.getusersitepackages()] + sys.path)
seen = []
for r in sorted(roots):
    for d in glob.glob(os.path.join(r, "nvidia", "*", "lib")):
        if d not in seen:
            seen.append(d)
print(":".join(seen))
PY
)
	cublas=""
	for d in $(echo "$dirs" | tr ':' ' ') /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu; do
		for f in "$d"/libcublas.so.[0-9]*; do
			[ -e "$f" ] && cublas=$f
		done
		[ -n "$cublas" ] && break
	done
	if [ -z "$cublas" ]; then
		echo "gpu-check: no libcublas.so.N found in Python's nvidia packages or system paths" >&2
		return 1
	fi
	ln -sf "$cublas" "$shim/libcublas.so"
	LD_LIBRARY_PATH="$shim:$dirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	echo "cublas: $cublas"
	echo "libcuda: $(ldconfig -p 2>/dev/null | awk '/libcuda.so.1 /{print $NF; exit}')"
}

cupy_gemm() {
	python3 - "$SIZES" <<'PY'
import json, sys, time
try:
    import cupy as cp
except Exception as e:  # reported, not fatal: our own numbers still stand
    print(json.dumps({"error": "cupy unavailable: %s" % e}))
    sys.exit(0)
rows = []
for n in [int(s) for s in sys.argv[1].split(",")]:
    for name, dt in (("dgemm", cp.float64), ("sgemm", cp.float32)):
        a = cp.ones((n, n), dtype=dt) * 1.0625
        c = a @ a  # warm-up, as the Go side does
        cp.cuda.Device().synchronize()
        reps, start = 0, time.perf_counter()
        while reps < 3 or time.perf_counter() - start < 0.25:
            c = a @ a
            reps += 1
        cp.cuda.Device().synchronize()
        secs = (time.perf_counter() - start) / reps
        rows.append({"elem": name, "n": n, "seconds": secs, "tflops": 2 * n**3 / secs / 1e12})
        del a, c
        cp.get_default_memory_pool().free_all_blocks()
print(json.dumps(rows))
PY
}

summary() {
	python3 - "$1" <<'PY'
import json, os, sys
res = sys.argv[1]
def load(name):
    try:
        with open(os.path.join(res, name)) as f:
            return json.load(f)
    except Exception:
        return None
ours, cupy, cross = load("gemm.json") or [], load("cupy.json"), load("crossover.json")
print("== GEMM throughput (TFLOP/s, operands resident on the GPU)")
if isinstance(cupy, dict):
    print("   CuPy: " + cupy.get("error", "?"))
    cupy = []
theirs = {(r["elem"], r["n"]): r for r in cupy or []}
print("   %-6s %6s %10s %10s %7s" % ("op", "n", "sqlearn", "cupy", "ratio"))
for r in ours:
    t = theirs.get((r["elem"], r["n"]))
    ratio = "%6.2f" % (r["tflops"] / t["tflops"]) if t else "     -"
    print("   %-6s %6d %10.2f %10s %7s" % (r["elem"], r["n"], r["tflops"], "%.2f" % t["tflops"] if t else "-", ratio))
if cross:
    print("== Dispatch crossover (operands on the host)")
    for k, v in sorted(cross.get("crossover", {}).items()):
        print("   %-24s gpu from %s" % (k, v))
PY
}

run() {
	dir=${1:-bench/gpu-check.d}
	test -x "$dir/gpu.test" || { echo "gpu-check: $dir/gpu.test missing; run '$0 build' on the build host" >&2; exit 1; }
	res=${OUT:-$dir/results}
	mkdir -p "$res"
	res=$(cd "$res" && pwd)
	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | tee "$res/gpu.txt" || true
	find_libs "$res/.libs" | tee "$res/libs.txt"
	status=0

	echo "== correctness: every CUDA kernel against the CPU device"
	SQLEARN_GPU_OUT=$res "$dir/gpu.test" -test.v -test.count=1 -test.timeout=5m \
		-test.run '^(TestCUDA(Gemm|Sgemm|Gemv|Elementwise|Reduce|Sparse|Resident|FallsBackOnFailure)|TestDiscover.*)$' \
		>"$res/correctness.log" 2>&1 || status=1
	grep -E '^(--- |ok|FAIL|PASS)' "$res/correctness.log" || true
	if grep -q -- '--- SKIP: TestCUDAGemm ' "$res/correctness.log"; then
		echo "gpu-check: the CUDA device did not open:" >&2
		grep -m1 'no CUDA device' "$res/correctness.log" >&2 || true
		status=1
	fi

	echo "== GEMM throughput: sqlearn device, sizes $SIZES"
	SQLEARN_GPU_OUT=$res SQLEARN_GPU_GEMM_SIZES=$SIZES "$dir/gpu.test" -test.v -test.count=1 -test.timeout=5m \
		-test.run '^TestCUDA(GemmThroughput|Crossover)$' >"$res/throughput.log" 2>&1 || status=1
	grep -E 'gemm n=|gpu from|^--- ' "$res/throughput.log" || true

	echo "== GEMM throughput: CuPy, same sizes"
	cupy_gemm >"$res/cupy.json" || status=1

	summary "$res" | tee "$res/summary.txt"
	echo "results in $res; status $status"
	exit $status
}

case "${1:-}" in
build) shift; build "$@" ;;
*) run "$@" ;;
esac
