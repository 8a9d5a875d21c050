"""Reads Go benchmark lines (ours and la_numpy.py's) and prints a markdown
table of medians and ratios per dataset and script."""
import re
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
metrics = defaultdict(dict)
pat = re.compile(r"^Benchmark(\w+)/data=([^/]+)/script=(\w+)(?:/elimination=(\w+))?-\d+\s+\d+\s+(\d+(?:\.\d+)?) ns/op(.*)$")
for line in sys.stdin:
    m = pat.match(line.strip())
    if not m:
        continue
    kind, data, script, mode, ns, rest = m.groups()
    key = (data, script, "numpy" if kind == "Numpy" else mode)
    runs[key].append(float(ns) / 1e9)
    for value, unit in re.findall(r"([\d.]+) ([a-z-]+)", rest):
        metrics[key].setdefault(unit, []).append(float(value))

print("| data | script | on (s) | off (s) | off/on | numpy naive (s) | numpy/on | optimizer (ms) | candidates block-wise / per-tree | runs |")
print("|---|---|---|---|---|---|---|---|---|---|")
for data, script in sorted({(d, s) for d, s, _ in runs}, key=lambda k: (k[0], ["gd", "dfp", "bfgs"].index(k[1]))):
    def med(mode):
        v = runs.get((data, script, mode))
        return statistics.median(v) if v else None
    on, off, np_ = med("on"), med("off"), med("numpy")
    m = metrics.get((data, script, "on"), {})
    opt = statistics.median(m["opt-ms"]) if "opt-ms" in m else None
    cands = "%d / %d" % (m["cands"][0], m["tree-cands"][0]) if "cands" in m else ""
    f = lambda v: "%.3f" % v if v is not None else "n/a"
    r = lambda a, b: "%.1fx" % (a / b) if a and b else "n/a"
    n = len(runs.get((data, script, "on"), []))
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |" % (
        data, script, f(on), f(off), r(off, on), f(np_), r(np_, on),
        "%.2f" % opt if opt is not None else "n/a", cands, n))
