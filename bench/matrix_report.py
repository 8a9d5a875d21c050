"""Prints bench/matrix.sh's table from the Go and numpy JSON results."""
import json, sys

go = json.load(open(sys.argv[1]))
py = json.load(open(sys.argv[2]))
print(f"BLAS: {go['blas']}; numpy {py['numpy']}; medians of {go['reps']} runs\n")
print("| GEMM n | Go kernel GFLOP/s | SQL MAT_MUL GFLOP/s | numpy GFLOP/s | kernel/numpy | SQL/numpy |")
print("|---|---|---|---|---|---|")
for n, g in go["gemm"].items():
    p = py["gemm"][n]["gflops"]
    print(f"| {n} | {g['kernel_gflops']:.2f} | {g['sql_gflops']:.2f} | {p:.2f} | {g['kernel_gflops']/p:.2f}x | {g['sql_gflops']/p:.2f}x |")
print("\n| sparse x dense | nnz | k | Go kernel ms | SQL ms | scipy ms | kernel/scipy (speed) | SQL/scipy (speed) |")
print("|---|---|---|---|---|---|---|---|")
for name, g in go["spmm"].items():
    p = py["spmm"][name]["s"]
    print(f"| {name} | {g['nnz']} | {g['k']} | {g['kernel_s']*1e3:.2f} | {g['sql_s']*1e3:.2f} | {p*1e3:.2f} | {p/g['kernel_s']:.2f}x | {p/g['sql_s']:.2f}x |")
l = go["load"]
print(f"\nMAT_FROM_QUERY load, {l['rows']} x {l['cols']} DOUBLE ({l['mb']:.0f} MB; table written through the log in {l['table_write_s']:.0f} s):\n")
print("| path | seconds | MB/s |")
print("|---|---|---|")
for k in ["columnar", "columnar_ordered", "engine_fallback"]:
    print(f"| {k} | {l[k]['s']:.3f} | {l[k]['mb_per_s']:.0f} |")
