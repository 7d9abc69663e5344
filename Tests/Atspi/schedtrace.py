"""Where a slow bench sample's time went, on one clock: the kernel's scheduler events (ftrace,
`trace_clock mono` = CLOCK_MONOTONIC, the clock of Python's `time.perf_counter` and of the
adapter's `--verbose` lines), for the processes a sample passes through.

Used by `atspi_test.py --bench N --trace-sched` (root, tracefs mounted): a tracing instance of its
own (`/sys/kernel/tracing/instances/focusd-atspi-PID`, so other users of ftrace are not touched)
records `sched_switch` and `sched_waking` of the whole machine while the bench runs, and the
system calls of the traced processes. Each sample's path is walked back through the wake-ups
from the thread that saw it end (`path`): what each hop waited for a CPU is the scheduler's share
(`report` prints every figure less it). For each slow sample, `timeline` prints the path and, per
process (bench, focusd, adapter, the application, the accessibility bus daemon, Xvfb): how long
it ran, how long it waited runnable for a CPU (woken, not running), who woke it, and its system
calls that move messages, each at its offset from the sample's start; and which other tasks held
the CPUs while one of them waited.
"""
import bisect
import os
import re
import statistics

from bench import percentile

TRACEFS = "/sys/kernel/tracing"
# x86-64 system call numbers of what moves a message or waits for one.
SYSCALLS = {0: "read", 1: "write", 7: "poll", 20: "writev", 44: "sendto", 45: "recvfrom", 46: "sendmsg", 47: "recvmsg",
            232: "epoll_wait", 270: "pselect6", 271: "ppoll", 281: "epoll_pwait", 202: "futex", 19: "readv"}
LINE = re.compile(r"^\s*(.+?)-(\d+)\s+(?:\(\s*[\d-]+\)\s+)?\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)$")
FIELDS = re.compile(r"(\w+)=(\S*)")


def available():
    return os.geteuid() == 0 and os.path.isdir(os.path.join(TRACEFS, "instances"))


def threads(pid):
    try:
        return [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def with_environment(entry):
    """The processes whose environment holds `entry` (`NAME=value`)."""
    out = []
    for pid in os.listdir("/proc"):
        try:
            if pid.isdigit() and entry.encode() in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"):
                out.append(int(pid))
        except OSError:
            pass
    return out


def cmdline(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


class SchedRecord:
    """A record of the scheduler's events (ftrace's text) and the threads of each role."""

    def __init__(self, roles, lines=()):
        """`roles`: name -> thread ids; `lines`: ftrace's `trace` text."""
        self.roles = roles
        self.role_of = {tid: name for name, tids in self.roles.items() for tid in tids}
        self.events = []
        for line in lines:
            m = LINE.match(line)
            if m:
                fields = dict(FIELDS.findall(m.group(6)))
                self.events.append((float(m.group(4)), int(m.group(3)), int(m.group(2)), m.group(1).strip(), m.group(5), fields, m.group(6)))
        self.events.sort(key=lambda e: e[0])
        self.times = [e[0] for e in self.events]
        # Per thread: ("in", t), ("out", t, state), ("woken", t, waker, waker's name), in order.
        self.by_tid = {}
        for t, cpu, pid, comm, kind, fields, raw in self.events:
            if kind in ("sched_waking", "sys_enter") and pid in self.by_tid:
                # The thread doing this is on a CPU: where a switch-in is missing from the record
                # (ftrace was seen to miss a few on a CPU leaving idle), this bounds it.
                self.by_tid[pid].append(("seen", t))
            if kind == "sched_waking":
                self.by_tid.setdefault(int(fields.get("pid", -1)), []).append(("woken", t, pid, comm))
            elif kind == "sched_switch":
                self.by_tid.setdefault(int(fields.get("prev_pid", -1)), []).append(("out", t, fields.get("prev_state", "")))
                self.by_tid.setdefault(int(fields.get("next_pid", -1)), []).append(("in", t))
        self.tid_times = {tid: [e[1] for e in events] for tid, events in self.by_tid.items()}

    def window(self, start, end):
        """One pass over the record from `start` to `end` (CLOCK_MONOTONIC seconds): per role, the
        time on a CPU, the intervals runnable but not on a CPU (waiting for one), the time in
        uninterruptible sleep, the message system calls; and which other tasks held the CPUs while a
        role's thread waited."""
        running = {}  # tid -> since (on a CPU)
        waiting = {}  # tid -> since (runnable, not on a CPU)
        blocked = {}  # tid -> since (uninterruptible sleep: I/O, a page fault, a lock in the kernel)
        out = {"ran": {}, "waits": {}, "blocked": {}, "calls": {}, "occupants": {}, "wakes": {}}
        on_cpu = {}  # cpu -> (comm, tid, since)

        def add(table, role, value):
            out[table][role] = out[table].get(role, 0) + value

        def overlap(a, b):
            return max(0.0, min(b, end) - max(a, start))

        def waited(tid, a, b):
            if tid in self.role_of and overlap(a, b) > 0:
                out["waits"].setdefault(self.role_of[tid], []).append((max(a, start), min(b, end)))

        first = bisect.bisect_left(self.times, start - 0.5)  # a wait or a run may have begun before
        for t, cpu, pid, comm, kind, fields, raw in self.events[first:]:
            if t > end:
                break
            if kind == "sched_waking":
                tid = int(fields.get("pid", -1))
                if tid in self.role_of and start <= t:
                    out["wakes"].setdefault(self.role_of[tid], []).append(f"{(t - start) * 1000:.1f} by {comm}-{pid}")
                if tid in blocked:
                    a = blocked.pop(tid)
                    if tid in self.role_of:
                        add("blocked", self.role_of[tid], overlap(a, t))
                if tid not in running:
                    waiting.setdefault(tid, t)
            elif kind == "sched_switch":
                prev, nxt = int(fields.get("prev_pid", -1)), int(fields.get("next_pid", -1))
                if prev in running and prev in self.role_of:
                    add("ran", self.role_of[prev], overlap(running[prev], t))
                running.pop(prev, None)
                if fields.get("prev_state", "").startswith("R"):
                    waiting[prev] = t
                elif fields.get("prev_state", "").startswith("D"):
                    blocked[prev] = t
                if cpu in on_cpu:
                    occupant, otid, since = on_cpu[cpu]
                    role_waits = [w for tid, w in waiting.items() if tid in self.role_of and tid != prev]
                    if otid not in self.role_of and otid != 0 and role_waits:
                        held = max(0.0, min(t, end) - max(since, min(role_waits), start))
                        out["occupants"][occupant] = out["occupants"].get(occupant, 0) + held
                if nxt in waiting:
                    waited(nxt, waiting.pop(nxt), t)
                running[nxt] = t
                on_cpu[cpu] = (fields.get("next_comm", "?"), nxt, t)
            if kind in ("sched_waking", "sys_enter") and pid in waiting and pid in self.role_of:
                waited(pid, waiting.pop(pid), t)  # on a CPU, its switch-in missing from the record
                running[pid] = t
            if kind == "sys_enter" and start <= t and pid in self.role_of:
                number = int(raw.split("NR ", 1)[1].split()[0]) if "NR " in raw else -1
                args = raw.split("(", 1)[1].split(",")[0] if "(" in raw else ""
                out["calls"].setdefault(self.role_of[pid], []).append(
                    f"{(t - start) * 1000:.1f} {SYSCALLS.get(number, number)}({int(args, 16) if args else ''})")
        for tid, since in running.items():
            if tid in self.role_of:
                add("ran", self.role_of[tid], overlap(since, end))
        for tid, since in waiting.items():
            waited(tid, since, end)
        return out

    def path(self, start, end, tid):
        """The sample's path, walked back from `end` in thread `tid` (the one that saw the sample
        end): each thread on it was made runnable by a wake-up from the one before (a message, a
        reply) or by being preempted; returns [(name, tid, waited from, to)] from the last hop
        back, the waits for a CPU on the path, clipped to the sample. It stops at `start`, or at a
        wake-up by a timer, an interrupt or a kernel thread (nothing before it on the path)."""
        hops, t = [], end
        names = {}
        for _ in range(10_000):
            events, times = self.by_tid.get(tid), self.tid_times.get(tid)
            if not events or t <= start:
                break
            i = bisect.bisect_right(times, t) - 1
            first_seen = t
            # Running at t: back to the start of that run (a switch-out at t itself came after).
            while i >= 0 and (events[i][0] == "seen" or (events[i][0] == "out" and events[i][1] >= t)):
                first_seen = min(first_seen, events[i][1])
                i -= 1
            if i < 0:
                break
            if events[i][0] == "in":
                switched_in = events[i][1]
                k = i - 1
            elif events[i][0] == "woken":  # its switch-in is not in the record: on a CPU by first_seen
                switched_in = first_seen
                k = i
                i += 1
            else:
                break
            while k >= 0 and events[k][0] in ("woken", "seen"):
                k -= 1
            name = self.role_of.get(tid) and f"{self.role_of[tid]}-{tid}" or names.get(tid, str(tid))
            wakes = [e for e in events[k + 1:i] if e[0] == "woken"]
            if wakes:  # woken after a sleep: the (first) waker is the hop before
                woken, waker, waker_name = wakes[0][1], wakes[0][2], wakes[0][3]
                hops.append((name, tid, max(woken, start), max(switched_in, start)))
                if woken <= start or waker == 0 or waker_name.startswith(("kworker", "ksoftirqd", "rcu_", "migration")):
                    break
                names[waker] = f"{waker_name}-{waker}"
                tid, t = waker, woken
            elif k >= 0 and events[k][0] == "out" and events[k][2].startswith("R"):  # preempted
                hops.append((name, tid, max(events[k][1], start), max(switched_in, start)))
                t = events[k][1]
            else:
                break
        return hops

    def path_wait(self, start, end, tid):
        """How long the sample's path (`path`) waited for a CPU, seconds."""
        return sum(b - a for _, _, a, b in self.path(start, end, tid))

    def timeline(self, start, end, print_line, title, seen_by):
        """The sample from `start` to `end`: its path back from the thread `seen_by` that saw it
        end, with each hop's wait for a CPU; per role, its time on a CPU and waiting for one, its
        wake-ups and message system calls; and which tasks ran on the CPUs while a role waited."""
        w = self.window(start, end)
        hops = self.path(start, end, seen_by)
        print_line(f"trace {title}: {(end - start) * 1000:.1f} ms, of which its path waited for a CPU "
                   f"{sum(b - a for _, _, a, b in hops) * 1000:.1f} ms")
        # Consecutive hops in one thread (preempted, or woken by itself) are one; hops that waited
        # less than 0.5 ms are counted, not named.
        merged = []
        for name, _, a, b in hops:
            if merged and merged[-1][0] == name:
                merged[-1] = (name, a, merged[-1][2] + b - a)
            else:
                merged.append((name, a, b - a))
        named = [f"{name} {(a - start) * 1000:.1f}+{waited * 1000:.1f}" for name, a, waited in merged if waited >= 0.0005]
        print_line(f"  path back from the end, {len(merged)} hops; those that waited 0.5 ms or more (runnable at ms + waited ms): "
                   + " <- ".join(named))
        for role in self.roles:
            waits = w["waits"].get(role, [])
            longest = max(waits, key=lambda ab: ab[1] - ab[0]) if waits else None
            line = (f"  {role:10} ran {w['ran'].get(role, 0) * 1000:6.1f} ms, waited for a CPU "
                    f"{sum(b - a for a, b in waits) * 1000:6.1f} ms"
                    + (f" (longest {(longest[1] - longest[0]) * 1000:.1f} ms from {(longest[0] - start) * 1000:.1f})" if longest else "")
                    + (f", blocked in the kernel (D) {w['blocked'][role] * 1000:.1f} ms" if w["blocked"].get(role, 0) > 0.0001 else ""))
            print_line(line)
            wakes = w["wakes"].get(role, [])
            if wakes:
                print_line("             woken at " + ", ".join(wakes[:12]) + (" …" if len(wakes) > 12 else ""))
            calls = w["calls"].get(role, [])
            if calls:
                print_line("             " + ", ".join(calls[:40]) + (" …" if len(calls) > 40 else ""))
        top = sorted(w["occupants"].items(), key=lambda kv: -kv[1])[:6]
        if top:
            print_line("  on the CPUs while they waited: " + ", ".join(f"{c} {ms * 1000:.1f} ms" for c, ms in top))

    def report(self, spans, slower_than, adapter_log, print_line, seen_by):
        """For each kind of sample in `spans` ((title "KIND #N ...", start, end, ms)): the figure,
        and the figure less the time some process of it waited for a CPU (what is left is the
        processes' own time and their waits for one another, whatever else the machine ran; a
        process waiting off the sample's path is taken out too, so it is a lower bound); then the
        timeline of each sample slower than `slower_than` ms and twice its kind's median, with the
        adapter's --verbose lines in it."""
        kinds = {}
        for title, start, end, ms in spans:
            kinds.setdefault(title.split(" #")[0], []).append((ms, ms - self.path_wait(start, end, seen_by) * 1000))
        for kind, values in kinds.items():
            whole, own = [v[0] for v in values], [v[1] for v in values]
            print_line(f"sched  {kind}: median {statistics.median(whole):.2f} ms, p99 {percentile(whole, 99):.2f} ms; "
                       f"less its path's waits for a CPU: median {statistics.median(own):.2f} ms, "
                       f"p99 {percentile(own, 99):.2f} ms, max {max(own):.2f} ms ({len(values)} samples)")
        lines = open(adapter_log).read().splitlines()
        medians = {kind: statistics.median(v[0] for v in values) for kind, values in kinds.items()}
        for title, start, end, ms in spans:
            if ms < slower_than or ms < 2 * medians[title.split(" #")[0]]:
                continue
            self.timeline(start, end, print_line, title, seen_by)
            # The adapter's --verbose lines in the span (their clock: CLOCK_MONOTONIC ms modulo 100 s).
            low, high = (start * 1000) % 100_000, (end * 1000) % 100_000
            for line in lines:
                words = line.split()
                try:
                    at = float(words[2])
                except (IndexError, ValueError):
                    continue
                if low <= at <= high or (high < low and (at >= low or at <= high)):
                    print_line(f"  adapter +{(at - low) % 100_000:.1f} ms: {' '.join(words[4:])[:150]}")


class SchedTrace(SchedRecord):
    """A tracing instance of its own, recording while the bench runs (`start`, `stop`)."""

    def __init__(self, roles):
        """`roles`: name -> process ids (each process's threads are traced)."""
        super().__init__({name: set(t for pid in pids for t in threads(pid)) for name, pids in roles.items()})
        self.dir = os.path.join(TRACEFS, "instances", f"focusd-atspi-{os.getpid()}")
        os.makedirs(self.dir, exist_ok=True)
        self.write("tracing_on", "0")
        self.write("buffer_size_kb", "65536")
        self.write("trace_clock", "mono")
        self.write("trace", "")
        for event in ("sched/sched_switch", "sched/sched_waking"):
            self.write(f"events/{event}/enable", "1")
        tids = sorted(self.role_of)
        self.write("events/raw_syscalls/sys_enter/filter",
                   "(" + " || ".join(f"common_pid == {t}" for t in tids) + ") && ("
                   + " || ".join(f"id == {n}" for n in SYSCALLS if n != 202) + ")")
        self.write("events/raw_syscalls/sys_enter/enable", "1")

    def groups(self):
        """Each role's scheduling group (the kernel's autogroup: one per session), as text."""
        out = []
        for name, tids in self.roles.items():
            found = set()
            for tid in tids:
                try:
                    found.add(open(f"/proc/{tid}/autogroup").read().split()[0])
                except OSError:
                    pass
            out.append(f"{name} {','.join(sorted(found)) or '?'}")
        return "; ".join(out)

    def write(self, name, value):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(value)

    def start(self):
        self.write("tracing_on", "1")

    def close(self):
        """Turns the instance's events off and removes it (again: nothing)."""
        if not os.path.isdir(self.dir):
            return
        self.write("tracing_on", "0")
        for event in ("sched/sched_switch", "sched/sched_waking", "raw_syscalls/sys_enter"):
            self.write(f"events/{event}/enable", "0")
        self.write("events/raw_syscalls/sys_enter/filter", "0")
        try:
            os.rmdir(self.dir)
        except OSError:
            pass

    def stop(self):
        """Stops tracing, reads and parses the record, removes the instance; returns ftrace's text."""
        self.write("tracing_on", "0")
        with open(os.path.join(self.dir, "trace")) as f:
            text = f.read()
        self.close()
        SchedRecord.__init__(self, self.roles, text.splitlines())
        return text
