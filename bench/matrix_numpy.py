"""numpy/scipy side of bench/matrix.sh: GEMM and sparse x dense timings."""
import json, sys, time
import numpy as np, scipy.io, scipy.sparse as sp

datasets, reps, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sizes = [int(s) for s in sys.argv[4].split(",")]


def median_time(f):
    f()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return sorted(ts)[len(ts) // 2]


out = {"gemm": {}, "spmm": {}, "numpy": np.__version__}
rng = np.random.default_rng(1)
for n in sizes:
    a, b = rng.random((n, n)), rng.random((n, n))
    t = median_time(lambda: a @ b)
    out["gemm"][str(n)] = {"s": t, "gflops": 2 * n**3 / t / 1e9}
for name in ["bcsstk13", "pushpull"]:
    m = sp.csr_matrix(scipy.io.mmread(f"{datasets}/matrices/{name}.mtx"))
    m.sum_duplicates()
    m.eliminate_zeros()
    x = rng.random((m.shape[1], k))
    t = median_time(lambda: m @ x)
    out["spmm"][name] = {"s": t, "gflops": 2 * m.nnz * k / t / 1e9, "nnz": int(m.nnz)}
json.dump(out, sys.stdout)
