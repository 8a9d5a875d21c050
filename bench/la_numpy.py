"""The least-squares scripts of testdata/la written naively in numpy.

Each expression is evaluated as written, left to right, as numpy does it
(t(X) %*% X %*% w is (X.T @ X) @ w), which is what the LA scripts mean
without an optimiser. X.T is a free view in numpy. Prints one line per
run in Go benchmark format so that la.sh can take medians of both.

usage: la_numpy.py ROWS COUNT [DATASETS_DIR]
"""
import os
import sys
import time

import numpy as np


def synthetic(rows, cols=47, seed=11):
    rng = np.random.default_rng(seed)
    x = rng.random((rows, cols))
    x[rng.random((rows, cols)) >= 0.6] = 0.0  # 60% nonzeros, stored dense
    w = rng.random((cols, 1))
    y = x @ w + 0.01 * rng.random((rows, 1))
    return x, y


def higgs(datasets):
    d = np.loadtxt(os.path.join(datasets, "tabular", "higgs-7k.train.tsv"), delimiter="\t")
    return d[:, 1:].copy(), d[:, :1].copy()


def gd(X, y, iters):
    w = np.zeros((X.shape[1], 1))
    lr = 0.2 / (X.shape[0] * X.shape[1])
    for _ in range(iters):
        g = 2 * (X.T @ X @ w - X.T @ y)
        w = w - lr * g
    return w


def dfp(X, y, iters):
    c = X.T @ y
    w = np.zeros((X.shape[1], 1))
    H = np.eye(X.shape[1])
    alpha = 0.2 / (X.shape[0] * X.shape[1])
    for _ in range(iters):
        g = 2 * (X.T @ X @ w - c)
        d = H @ g
        w = w - alpha * d
        H = (H - (H @ X.T @ X @ d @ d.T @ X.T @ X @ H) / (d.T @ X.T @ X @ H @ X.T @ X @ d)
             + (d @ d.T) / (2 * d.T @ X.T @ X @ d))
    return w


def bfgs(X, y, iters):
    c = X.T @ y
    w = np.zeros((X.shape[1], 1))
    H = np.eye(X.shape[1])
    alpha = 0.2 / (X.shape[0] * X.shape[1])
    for _ in range(iters):
        g = 2 * (X.T @ X @ w - c)
        d = H @ g
        w = w - alpha * d
        H = (H + (d @ d.T) / (2 * d.T @ X.T @ X @ d)
             + (d @ d.T) * (d.T @ X.T @ X @ H @ X.T @ X @ d) / ((d.T @ X.T @ X @ d) ** 2)
             - (d @ d.T @ X.T @ X @ H) / (d.T @ X.T @ X @ d)
             - (H.T @ X.T @ X @ d @ d.T) / (d.T @ X.T @ X @ d))
    return w


def main():
    rows, count = int(sys.argv[1]), int(sys.argv[2])
    datasets = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "datasets")
    data = [("synthetic%dx47" % rows, synthetic(rows))]
    try:
        data.append(("higgs7k", higgs(datasets)))
    except OSError as e:
        print("# HIGGS sample not available:", e, file=sys.stderr)
    for name, (X, y) in data:
        for script, fn, iters in (("gd", gd, 200), ("dfp", dfp, 50), ("bfgs", bfgs, 50)):
            for _ in range(count):
                start = time.perf_counter()
                fn(X, y, iters)
                ns = (time.perf_counter() - start) * 1e9
                print("BenchmarkNumpy/data=%s/script=%s-2 \t 1\t %d ns/op" % (name, script, ns), flush=True)


if __name__ == "__main__":
    main()
