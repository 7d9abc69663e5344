#!/bin/bash
# Instructions the event loop thread spends on one key press and on one release, in scenario 78's
# shape (demo scene, two Focus monitors and one Input monitor on the real socket), counted by
# callgrind (repeatable on a loaded machine, unlike the clock). LoopBench runs focusd in-process
# and plays the input thread (see its main.swift); valgrind keeps one profile per thread, and the
# loop thread is the one that runs `InputRouter`.
#   1. --dumps phases: a dump after each press, each release and an idle phase (the dump's own
#      cost: a task run on the loop, ~9k instructions): the loop thread's median (and mean)
#      instructions per press and per release, and the same less the idle median;
#   2. --dumps total: one dump over all of them: the loop thread's top functions by inclusive cost
#      (TOP lines, default 30), demangled.
# Usage: Benchmarks/LoopBench/callgrind.sh [LOOPBENCH] (default .build/release/LoopBench; its
# debug info is stripped: valgrind 3.19 cannot read Swift 6's). PRESSES (default 200) per run;
# KEEP=DIR keeps the profiles; LOG_LEVEL (default debug, as scenario 78 runs focusd);
# INPUT_MONITOR=no runs without the Input monitor (a UI without a test bench).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/deps bench  # valgrind, on a fresh machine
bench=${1:-.build/release/LoopBench}
presses=${PRESSES:-200}
top=${TOP:-30}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
strip -g -o "$dir/LoopBench" "$bench"
run() {
    local mode=$1
    mkdir -p "$dir/$mode"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$dir/$mode/cg" \
        "$dir/LoopBench" --presses "$presses" --warmup 20 --dumps "$mode" --log-level "${LOG_LEVEL:-debug}" --input-monitor "${INPUT_MONITOR:-yes}" \
        >"$dir/$mode.out" 2>"$dir/$mode.err" || { tail -20 "$dir/$mode.err" >&2; exit 1; }
    [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp -r "$dir/$mode" "$KEEP/" || true
}
run phases
run total
python3 - "$dir" "$presses" "$top" <<'PY'
import glob, os, re, statistics, subprocess, sys
root, presses, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def header(path):
    """(thread, trigger label, total instructions) of one callgrind dump."""
    thread = label = total = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("thread:"): thread = int(line.split()[1])
            elif line.startswith("desc: Trigger:"): label = line.split("Client Request:", 1)[-1].strip()
            elif line.startswith(("totals:", "summary:")): total = int(line.split()[1])
    return thread, label, total

def loop_thread(files):
    """The thread whose profiles run InputRouter (mangled: 11InputRouterC)."""
    threads = set()
    for path in files:
        with open(path, errors="replace") as f:
            if "11InputRouterC" in f.read():
                threads.add(header(path)[0])
    if len(threads) != 1:
        sys.exit(f"callgrind.sh: expected one thread running InputRouter, found {sorted(threads)}")
    return threads.pop()

files = glob.glob(f"{root}/phases/cg*")
loop = loop_thread(files)
costs = {"press": [], "release": [], "idle": []}
for path in files:
    thread, label, total = header(path)
    if thread != loop or not label: continue
    kind = label.split()[0]
    if kind in costs: costs[kind].append(total)
for kind, values in costs.items():
    if len(values) != presses: sys.exit(f"callgrind.sh: {len(values)} {kind} dumps, expected {presses}")
    print(f"loop thread, instructions per {kind}: median {statistics.median(values):,.0f}, mean {statistics.mean(values):,.0f}, "
          f"min {min(values):,}, max {max(values):,} ({presses} phases)")
press, release, idle = (statistics.median(costs[k]) for k in ("press", "release", "idle"))
print(f"loop thread, less the idle phase (the dump's own task): press {press - idle:,.0f}, release {release - idle:,.0f}, "
      f"press + release {press + release - 2 * idle:,.0f}")

total = [p for p in glob.glob(f"{root}/total/cg*") if header(p)[0] == loop and header(p)[1] == "measured"]
if len(total) != 1: sys.exit(f"callgrind.sh: no loop-thread profile of the measured run ({total})")
whole = header(total[0])[2]
print(f"loop thread, whole run: {whole:,} instructions for {presses} presses and releases = {whole / presses:,.0f} per press + release")
annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", f"--threshold=100", total[0]],
                           capture_output=True, text=True, check=True).stdout
demangled = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input=annotated,
                           capture_output=True, text=True).stdout or annotated
rows = [l for l in demangled.splitlines() if re.match(r"^\s*[\d,]+ \(", l)]
print(f"top {top} by inclusive cost (instructions over the run, % of the loop thread's):")
for line in rows[:top]:
    print("  " + (line if len(line) < 220 else line[:217] + "..."))
PY
