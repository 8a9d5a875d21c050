#!/usr/bin/env bash
# Statements by key inside one transaction that has written many rows
# (bench/txwrites.py), against MariaDB, and optionally an earlier build.
#
#   bench/txwrites.sh [ROWS] [RUNS] [BEFORE_BIN]
#
# Starts the built sqlearn and MariaDB with its default settings (and
# BEFORE_BIN, another sqlearn binary, when given) on loopback ports with
# fresh data dirs, runs the workload RUNS times (default 5) on each in
# turn with ROWS rows (default 3000), and prints the median statements per
# second of each kind and sqlearn / MariaDB (and sqlearn / before), and
# the median CPU time each server spent on a run (all its statements).
# TXWRITES_KINDS (comma separated, as bench/txwrites.py names them) runs
# only those kinds after the inserts.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source bench/lib.sh
ROWS=${1:-3000}
RUNS=${2:-5}
BEFORE=${3:-}
need mariadb-server mariadb-client python3-pymysql
SQLEARN_PORT=3441 MARIADB_PORT=3442 BEFORE_PORT=3443
serve_both
if [ -n "$BEFORE" ]; then
	"$BEFORE" serve --addr 127.0.0.1:$BEFORE_PORT --data-dir "$WORK/before" --log-level error >"$WORK/before.log" 2>&1 &
	BEFORE_PID=$!
	trap 'kill ${SQLEARN_PID:-} ${MARIADB_PID:-} ${BEFORE_PID:-} 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
	wait_port $BEFORE_PORT
fi

# cpu is the CPU time (user and system, in clock ticks) process PID has
# used.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
servers=(sqlearn:$SQLEARN_PORT:$SQLEARN_PID mariadb:$MARIADB_PORT:$MARIADB_PID)
[ -n "$BEFORE" ] && servers+=(before:$BEFORE_PORT:$BEFORE_PID)
for run in $(seq 1 "$RUNS"); do
	for s in "${servers[@]}"; do
		IFS=: read -r name port pid <<<"$s"
		before=$(cpu "$pid")
		rates=$(/usr/bin/python3 bench/txwrites.py "$port" "$ROWS" "${TXWRITES_KINDS:-}")
		echo "$name $rates" >>"$WORK/runs"
		echo "$name $(($(cpu "$pid") - before))" >>"$WORK/cpu"
	done
done
/usr/bin/python3 - "$WORK/runs" "$WORK/cpu" "$(getconf CLK_TCK)" <<'PY'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, rates = line.split(" ", 1)
    for kind, rate in json.loads(rates).items():
        runs.setdefault(kind, {}).setdefault(name, []).append(rate)
names = [n for n in ("sqlearn", "mariadb", "before") if any(n in v for v in runs.values())]
print("%-24s" % "statements/s (median)" + "".join("%10s" % n for n in names) + "  sqlearn/mariadb" +
      ("  sqlearn/before" if "before" in names else ""))
for kind, by in runs.items():
    med = {n: statistics.median(by[n]) for n in names}
    line = "%-24s" % kind + "".join("%10.0f" % med[n] for n in names) + "%17.2f" % (med["sqlearn"] / med["mariadb"])
    if "before" in med:
        line += "%17.2f" % (med["sqlearn"] / med["before"])
    print(line)
cpu = {}
for line in open(sys.argv[2]):
    name, ticks = line.split()
    cpu.setdefault(name, []).append(int(ticks) / int(sys.argv[3]))
print("%-24s" % "server CPU s a run" + "".join("%10.2f" % statistics.median(cpu[n]) for n in names))
PY
