"""Reference timings for docs/benchmarks-hybrid.md: networkx's pagerank and
a scipy.sparse power iteration with networkx's update and stopping rule,
median of RUNS runs, on the same SNAP files the Go runtime reads."""
import gzip, statistics, sys, time

import networkx as nx
import numpy as np
import scipy.sparse as sp

runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
root = sys.argv[1]


def edges(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return nx.read_edgelist(f, create_using=nx.DiGraph, nodetype=int)


def power(A, dangling, n, tol, alpha=0.85, max_iter=1000):
    x = np.full(n, 1.0 / n)
    for k in range(max_iter):
        last = x
        x = alpha * (A @ x + x[dangling].sum() / n) + (1 - alpha) / n
        if np.abs(x - last).sum() < n * tol:
            return x, k + 1
    return x, max_iter


for name in ["wiki-Vote.txt", "soc-Slashdot0902.txt.gz"]:
    g = edges(f"{root}/graphs/{name}")
    n = g.number_of_nodes()
    nodes = list(g)
    P = nx.to_scipy_sparse_array(g, nodelist=nodes, dtype=float, format="csr")
    out = np.asarray(P.sum(axis=1)).ravel()
    inv = np.divide(1.0, out, out=np.zeros_like(out), where=out != 0)
    A = sp.csr_array((sp.diags(inv) @ P).T)  # M = Pᵀ, built once outside the timing
    dangling = np.where(out == 0)[0]
    for tol in [1e-6, 1e-8, 1e-10]:
        t_nx, t_sp = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            nx.pagerank(g, alpha=0.85, tol=tol, max_iter=1000)
            t_nx.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            _, iters = power(A, dangling, n, tol)
            t_sp.append(time.perf_counter() - t0)
        print(f"{name} tol={tol:g}: networkx {statistics.median(t_nx)*1e3:.1f} ms, "
              f"scipy power iteration {statistics.median(t_sp)*1e3:.1f} ms ({iters} iterations)")
