#!/usr/bin/env python3
"""Where the hostile bench's slow samples went, on one clock.

    python3 Benchmarks/hostile-schedslow.py setsid -w .build-release/release/ServiceBench \
        --hostile --focusd F --only "10 scenes of 100,000" --slow-samples

runs the bench (root, tracefs mounted) under an ftrace instance of its own (sched_switch and
sched_waking of the whole machine, `trace_clock mono`: the bench's CLOCK_MONOTONIC). The bench's
`--slow-samples` prints when each wait of the timing client over 20 ms (and the worst) began,
and focusd's threads; for each, this prints what focusd's threads and the timing client did in
that window (ran, runnable but not on a CPU, slept; who woke them) and which tasks held each
CPU. The raw trace is left in /tmp/focusd-schedslow-trace.txt (`--analyse OUTPUT TRACE` reads
a saved pair again). docs/performance.md ("Hostile rows: where a slow sample waited") has what
it found."""
import os, re, subprocess, sys, collections

T = "/sys/kernel/tracing/instances/focusd-schedslow-%d" % os.getpid()
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$")
FIELDS = re.compile(r"(\w+)=(\S*)")

def w(name, value):
    with open(os.path.join(T, name), "w") as f: f.write(value)

def main():
    bench = sys.argv[1:]
    os.mkdir(T)
    try:
        w("trace_clock", "mono"); w("buffer_size_kb", "65536")
        w("events/sched/sched_switch/enable", "1"); w("events/sched/sched_waking/enable", "1")
        w("tracing_on", "1")
        out = subprocess.run(bench, stdout=subprocess.PIPE, text=True).stdout
        w("tracing_on", "0")
        trace = open(os.path.join(T, "trace")).read()
    finally:
        try:
            w("tracing_on", "0")
            os.rmdir(T)
        except OSError as e: print("rmdir", e)
    open("/tmp/focusd-schedslow-trace.txt", "w").write(trace)
    print(out)
    analyse(out, trace)

def analyse(out, trace):
    events = []
    for line in trace.splitlines():
        m = LINE.match(line)
        if not m: continue
        comm, pid, cpu, ts, ev, rest = m.groups()
        events.append((float(ts) * 1000, int(cpu), ev, dict(FIELDS.findall(rest)), int(pid), comm))
    names = {}
    for block in re.findall(r"threads: ([^)]*)\)", out):
        for item in block.split(", "):
            tid, _, name = item.partition(" ")
            if tid.isdigit(): names[int(tid)] = name
    focusd = set()
    m = re.search(r"focusd pid (\d+) \(threads: ([^)]*)\)", out)
    if m: focusd = {int(x.split(" ")[0]) for x in m.group(2).split(", ")}
    victim = None
    # timeline per tid: list of (state, start, end)
    state = {}; since = {}; segs = collections.defaultdict(list); oncpu = collections.defaultdict(list)
    comms = {}
    running = {}
    for ts, cpu, ev, f, pid, comm in events:
        if ev == "sched_waking":
            t = int(f.get("pid", -1)); comms[t] = f.get("comm")
            if state.get(t) == "S":
                segs[t].append(("S", since[t], ts, None)); state[t] = "W"; since[t] = ts
                segs[t].append(("waker", ts, ts, (pid, comm)))
        elif ev == "sched_switch":
            p = int(f["prev_pid"]); n = int(f["next_pid"]); comms[p] = f["prev_comm"]; comms[n] = f["next_comm"]
            if p in since: segs[p].append((state[p], since[p], ts, cpu))
            state[p] = "W" if f["prev_state"].startswith("R") else "S"; since[p] = ts
            if n in since: segs[n].append((state[n], since[n], ts, cpu))
            state[n] = "R"; since[n] = ts
            if cpu in running: oncpu[cpu].append((running[cpu][0], running[cpu][1], ts))
            running[cpu] = (n, ts)
    for t, c in comms.items():
        if c == "timing-client": victim = t
    def label(t): return "%s[%d]" % (names.get(t) or comms.get(t, "?"), t)
    for began, waited in re.findall(r"slow: began ([\d.]+) ms, waited ([\d.]+) ms", out):
        a = float(began); b = a + float(waited)
        print("\n=== slow sample %.3f + %s ms" % (a, waited))
        for t in sorted(focusd | ({victim} if victim else set())):
            tot = collections.Counter()
            parts = []
            for st, s, e, x in segs.get(t, []):
                if st == "waker":
                    if a <= s <= b: parts.append("  woken at +%.2f by %s" % (s - a, label(x[0])))
                    continue
                lo, hi = max(s, a), min(e, b)
                if hi > lo:
                    tot[st] += hi - lo
                    if hi - lo > 0.5: parts.append("  %s +%.2f..+%.2f (%.2f ms)%s" % ({"R": "ran", "W": "RUNNABLE, not on a CPU", "S": "slept"}[st], lo - a, hi - a, hi - lo, " cpu%s" % x if st == "R" else ""))
            if tot:
                print("%s: ran %.2f, runnable-waiting %.2f, slept %.2f ms" % (label(t), tot["R"], tot["W"], tot["S"]))
                for p in parts: print(p)
        for cpu in sorted(oncpu):
            tot = collections.Counter()
            for t, s, e in oncpu[cpu]:
                lo, hi = max(s, a), min(e, b)
                if hi > lo: tot[label(t)] += hi - lo
            print("cpu%d: " % cpu + ", ".join("%s %.1f" % kv for kv in tot.most_common(6)))

if __name__ == "__main__":
    if sys.argv[1] == "--analyse":
        analyse(open(sys.argv[2]).read(), open(sys.argv[3]).read())
    else:
        main()
