# summary: a grabbed remote's unmapped keys (volume, power, digits) arrive on focusd's pass-through node, its arrows move focus and never appear there, a key held at unplug is released there; the pass-through latency beside the bare reader
# udev: none
# needs: focusd
# timeout: 300
# focusd-build: release
import os

from realkernel import (CompiledMonitor, Device, Focusd, Monitor, Reader, SchedTrace, check, is_command, is_move,
                        nice_harness, percentile, read_text, scenario, wait_until)

PASSED = ["KEY_VOLUMEUP", "KEY_POWER", "KEY_NUMERIC_1"]
PRESSES = 300
# Between a press and everything of the press before it (both readers alike).
SETTLE_S = 0.02
# A second remote that focusd reads shared (no grab, no pass-through): the bare reader's device.
CONFIG = '[[profile]]\nname = "bench"\ngrab = "shared"\n[profile.match]\nname = "*bench*"\n'


def grabbed_with_passthrough(focusd, node):
    found = {}

    def ready():
        d = focusd.device_for(node)
        found["d"] = d
        return d["grabbed"] and d.get("passthrough")

    wait_until(ready, 20, f"focusd to grab {node} and make its pass-through device")
    return found["d"]


def body():
    with open("/tmp/focusd-passthrough.toml", "w") as f:
        f.write(CONFIG)
    dev = Device("remote")
    focusd = Focusd("--config", "/tmp/focusd-passthrough.toml", release=True)
    listed = grabbed_with_passthrough(focusd, dev.node)
    pt = listed["passthrough"]
    sys_name = read_text(f"/sys/class/input/{os.path.basename(pt)}/device/name")
    check(sys_name == "focusd passthrough: " + listed["name"], f"pass-through device named {sys_name!r}")
    check(read_text(f"/sys/class/input/{os.path.basename(pt)}/device/id/bustype") == "0006", "not BUS_VIRTUAL")
    check(all(d["node"] != pt for d in focusd.devices()), "focusd lists its own pass-through device")
    check(pt not in focusd.fds(), "focusd holds its own pass-through node open")

    # Unmapped keys pass, in order; the arrows move focus and never reach the pass-through node.
    reader = Reader(pt)
    moves = Monitor(focusd)
    for key in PASSED:
        dev.send(f"key {key} 1", "syn", f"key {key} 0", "syn")
    dev.send("key KEY_RIGHT 1", "syn", "key KEY_RIGHT 0", "syn", "sleep 150", "key KEY_LEFT 1", "syn", "key KEY_LEFT 0", "syn")
    dev.send("key KEY_MUTE 1", "syn", "key KEY_MUTE 0", "syn")
    got = [(e.code, e.value) for e in reader.events(lambda e: e.code == "KEY_MUTE" and e.value == 0, timeout=10)]
    want = [(k, v) for k in PASSED for v in (1, 0)] + [("KEY_MUTE", 1), ("KEY_MUTE", 0)]
    check(got == want, f"pass-through node got {got}, expected {want}")
    moves.expect(is_move(), 10, "a focus move by the remote's arrows")

    # The pass-through latency beside the bare reader of a twin remote focusd reads shared, pressed
    # alternately: kernel timestamp of the source frame (the Input Monitor's eventTimeUsec of the
    # mapped KEY_INFO in the same frame, CLOCK_REALTIME) -> the pass-through reader's receive time, against
    # kernel timestamp -> receive time at the bare reader.
    bench = Device("remote", name="test-focusd bench remote")
    bench_listed = focusd.device_for(bench.node)
    check(not bench_listed["grabbed"] and not bench_listed.get("passthrough"), f"the bench remote: {bench_listed}")
    bare = Reader(bench.node)
    source_id = listed["id"]
    # pt_ms splits at the pass-through event's own kernel timestamp (the kernel stamps a uinput
    # frame when focusd's write reaches its SYN_REPORT): source -> written is focusd's (its
    # wake-up, read, work, write), written -> received the pass-through reader's wake-up.
    pt_ms, written_ms, woke_ms, bare_ms = [], [], [], []
    # (source stamp, pass-through stamp, received) and (stamp, received), CLOCK_MONOTONIC s, for RK_TRACE.
    pt_times, bare_times = [], []

    def passthrough_press():
        # KEY_INFO (the `info` command, no focus move) carries the frame's kernel timestamp.
        offset = time.time() - time.monotonic()
        dev.send("key KEY_INFO 1", "key KEY_VOLUMEUP 1", "syn")
        _, reply = inputs.expect(is_command("info", "press", source_id), 10, "KEY_INFO's press")
        source_kernel = reply["command"]["eventTimeUsec"] / 1e6 - offset
        e = reader.events(lambda e: e.code == "KEY_VOLUMEUP" and e.value == 1, timeout=10)[-1]
        pt_ms.append((e.recv - source_kernel) * 1000)
        written_ms.append((e.kernel - source_kernel) * 1000)
        woke_ms.append((e.recv - e.kernel) * 1000)
        pt_times.append((source_kernel, e.kernel, e.recv))
        dev.send("key KEY_INFO 0", "key KEY_VOLUMEUP 0", "syn")
        reader.events(lambda e: e.code == "KEY_VOLUMEUP" and e.value == 0, timeout=10)
        # focusd is done with the release too (its Input monitor reply sent) before the next press.
        inputs.expect(is_command("info", "release", source_id), 10, "KEY_INFO's release")

    def bare_press():
        bench.send("key KEY_VOLUMEUP 1", "syn")
        e = bare.events(lambda e: e.code == "KEY_VOLUMEUP" and e.value == 1, timeout=10)[-1]
        bare_ms.append((e.recv - e.kernel) * 1000)
        bare_times.append((e.kernel, e.recv))
        bench.send("key KEY_VOLUMEUP 0", "syn")
        bare.events(lambda e: e.code == "KEY_VOLUMEUP" and e.value == 0, timeout=10)

    # As 78: the harness (its Python threads, and the compiled Input monitor client that gives the
    # source frame's time) runs below the processes timed: focusd and the two readers.
    nice_harness(10)
    inputs = CompiledMonitor(focusd, interface="io.focusd.Input")
    # The same pacing for both: every press comes SETTLE_S after everything of the one before it
    # was seen, and which of the two goes first alternates, so neither is timed in the tail of
    # the other's work.
    trace = SchedTrace() if os.environ.get("RK_TRACE") else None
    for i in range(PRESSES):
        for press in (passthrough_press, bare_press) if i % 2 == 0 else (bare_press, passthrough_press):
            time.sleep(SETTLE_S)
            press()
    traced = ""
    if trace:
        trace.stop()
        traced = "; " + where_it_went(trace, focusd, reader, bare, pt_times, bare_times)
    bare.stop()
    bench.close()

    # A key held when the source goes is released on the pass-through node before it goes.
    dev.send("key KEY_VOLUMEDOWN 1", "syn")
    reader.events(lambda e: e.code == "KEY_VOLUMEDOWN" and e.value == 1, timeout=10)
    dev.close()
    reader.events(lambda e: e.code == "KEY_VOLUMEDOWN" and e.value == 0, timeout=10)
    wait_until(lambda: not os.path.exists(pt), 10, "the pass-through node to go with its source")
    reader.stop()
    focusd.stop()
    pm, p99, bm, b99 = (statistics.median(pt_ms), percentile(pt_ms, 99), statistics.median(bare_ms),
                        percentile(bare_ms, 99))
    return (f"volume, power, digit passed, arrows not; held key released at unplug; "
            f"{focusd.build} focusd pass-through {pm:.2f} / {p99:.2f} ms (median / p99, {PRESSES} presses) "
            f"vs bare reader {bm:.2f} / {b99:.2f} ms: {pm / bm:.1f}x the bare reader (goal <= 3x); "
            f"source -> pass-through written (focusd) {statistics.median(written_ms):.2f} / "
            f"{percentile(written_ms, 99):.2f} ms, written -> its reader {statistics.median(woke_ms):.2f} / "
            f"{percentile(woke_ms, 99):.2f} ms{traced}")


def where_it_went(trace, focusd, reader, bare, pt_times, bare_times):
    """Medians (ms) of each step of both paths, from the guest kernel's trace (RK_TRACE=1)."""
    tasks = f"/proc/{focusd.proc.pid}/task"
    # The input thread: focusd's unnamed thread (NIO's are named), not the main one.
    (input_tid,) = [int(t) for t in os.listdir(tasks)
                    if int(t) != focusd.proc.pid and read_text(f"{tasks}/{t}/comm") == "focusd"]
    steps = {name: [] for name in ("focusd woken", "on a CPU", "epoll_wait returns", "write(2) entered",
                                   "stamped", "reader woken", "reader on a CPU", "reader received")}
    for source, stamped, received in pt_times:
        woken = trace.first(source - 0.002, stamped, input_tid, "sched_wakeup")
        running = woken and trace.first(woken, stamped, input_tid, "sched_switch")
        returned = running and trace.first(running, stamped, input_tid, "sys_exit", "NR 232 ")
        write = returned and trace.last(returned, stamped, input_tid, "sys_enter", "NR 1 (")
        reader_woken = write and trace.first(stamped, received, reader.proc.pid, "sched_wakeup")
        reader_running = reader_woken and trace.first(reader_woken, received, reader.proc.pid, "sched_switch")
        if not reader_running:
            continue
        times = [source, woken, running, returned, write, stamped, reader_woken, reader_running, received]
        for name, a, b in zip(steps, times, times[1:]):
            steps[name].append((b - a) * 1000)
    bare_steps = {"woken": [], "on a CPU": [], "received": []}
    for stamped, received in bare_times:
        woken = trace.first(stamped - 0.0005, received, bare.proc.pid, "sched_wakeup")
        running = woken and trace.first(woken, received, bare.proc.pid, "sched_switch")
        if running:
            for name, a, b in zip(bare_steps, (stamped, woken, running), (woken, running, received)):
                bare_steps[name].append((b - a) * 1000)

    def line(found):
        return ", ".join(f"{name} {statistics.median(v):.3f}" for name, v in found.items() if v)
    return (f"traced medians (ms), pass-through ({len(steps['stamped'])} presses): {line(steps)}; "
            f"bare reader ({len(bare_steps['woken'])}): {line(bare_steps)}")


import statistics  # noqa: E402
import time  # noqa: E402

scenario(body)
