# summary: latency from the kernel's event timestamp to a Focus Monitor event at a client, median and p99 over 1,000 presses, against the bare reader's floor
# udev: any
# needs: focusd
# timeout: 300
# focusd-build: release
#
# Clocks: the bare reader asks evdev for CLOCK_MONOTONIC timestamps (EVIOCSCLOCKID) and this
# client stamps replies with time.monotonic(), so kernel -> client is measured on one clock.
# focusd's `eventTimeUsec` (io.focusd.Input.Command) is the same kernel timestamp in
# CLOCK_REALTIME µs (evdev stamps one event on every clock at once): it is checked against the
# reader's, through the offset between the two clocks, and gives the same figure on the
# realtime clock.
import json
import os
import re
import time

from realkernel import CompiledMonitor, Device, Fail, Focusd, Monitor, Reader, Relay, check, is_command, percentile, scenario

PRESSES = 1000
# Each key is held this long, as a finger holds it (well under the 250 ms repeat delay), and the
# next press waits until focusd has published this one's release: each press is timed on its own,
# not queued behind the key-up of a 1 ms burst (whose work, focusd's and the clients', then ran
# on the guest's two CPUs while the press was being timed).
HOLD_MS = 30
# Presses per relay floor (1 and 2 hops), after focusd's, on the same keyboard and bare reader,
# paced as focusd's (held HOLD_MS, the next one once the client has the release).
RELAY_PRESSES = 500
KEY_CODES = {"KEY_LEFT": 105, "KEY_RIGHT": 106}


def clock_offset():
    """CLOCK_REALTIME - CLOCK_MONOTONIC in seconds (the smallest bracket of three samples)."""
    best = None
    for _ in range(3):
        a = time.monotonic()
        r = time.time()
        b = time.monotonic()
        if best is None or b - a < best[0]:
            best = (b - a, r - (a + b) / 2)
    return best[1]


def cpu_seconds(pid):
    """User + system CPU time of a process (/proc/PID/stat), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid):
    """CPU seconds per thread of a process, by thread name (/proc/PID/task/*/stat)."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def focusd_breakdown():
    """focusd's own summary of where device frames' time went (logged at stop, log level debug)."""
    with open("/tmp/focusd.log") as f:
        lines = [l.strip() for l in f if "input path over" in l]
    return lines[-1][lines[-1].index("input path over"):] if lines else "focusd logged no input path summary"


def breakdown_medians(summary):
    """`read R, hop H, loop L us` from focusd's summary line (medians), or '?'."""
    found = re.findall(r"median (\d+) us", summary)
    return f"read {found[0]}, hop {found[1]}, loop {found[2]} us" if len(found) == 3 else "?"


def stats(values):
    return f"median {percentile(values, 50):.0f} us, p99 {percentile(values, 99):.0f} us"


def focus_event_size(compiled, is_move_event):
    """Bytes (with the NUL) of the last focus event focusd sent the compiled client."""
    for line in reversed(compiled.out.seen):
        text = line.partition(" ")[2]
        if is_move_event(json.loads(text).get("parameters", {})):
            return len(text.encode()) + 1
    raise Fail("the compiled client got no focus event to size the relay's message by")


def relay_floor(dev, reader, hops, size):
    """The relay floor with `hops` hops (focusd-testdevice relay, without focusd running) on the
    same keyboard and bare reader: per press, (bare reader's latencies, the relay's client's, the
    relay's CPU time per press in µs)."""
    relay = Relay(dev.node, hops, size)
    cpu_before = cpu_seconds(relay.proc.pid)
    reader_cpu_before = cpu_seconds(reader.proc.pid)
    bare, client = [], []
    for i in range(RELAY_PRESSES):
        key = "KEY_RIGHT" if i % 2 == 0 else "KEY_LEFT"
        dev.send(f"press {key} {HOLD_MS}")
        press = reader.events(lambda e: e.code == key and e.value == 1, timeout=10)[-1]
        t, m = relay.client.expect(lambda r: r.get("value") == 1, 5, f"relay {hops}'s press {i}")
        # The relay's message carries the kernel's timestamp: the same event as the reader's.
        check(m["code"] == KEY_CODES[key] and abs(float(m["kernel"]) - press.kernel) < 1e-6,
              f"relay {hops}: press {i} paired with {m['code']} at {m['kernel']}, the reader's is {press.kernel:.6f}")
        relay.client.expect(lambda r: r.get("value") == 0, 5, f"relay {hops}'s release {i}")
        bare.append((press.recv - press.kernel) * 1e6)
        client.append((t - press.kernel) * 1e6)
    cpu = (cpu_seconds(relay.proc.pid) - cpu_before) / RELAY_PRESSES * 1e6
    reader_cpu = (cpu_seconds(reader.proc.pid) - reader_cpu_before) / RELAY_PRESSES * 1e6
    relay.stop()
    check(min(client) > 0, f"relay {hops}: a message came before its press ({min(client):.0f} us)")
    return bare, client, cpu, reader_cpu, relay.build


def body():
    # The deployment build (run.sh builds it): a debug build's ~10x instructions per key press
    # are the whole figure under TCG.
    focusd = Focusd(release=True)
    focus = Monitor(focusd)
    compiled = CompiledMonitor(focusd)  # a third monitor: the figure without Python's costs
    inputs = Monitor(focusd, interface="io.focusd.Input")
    dev = Device("keyboard")
    device = focusd.device_for(dev.node)["id"]
    reader = Reader(dev.node)  # keyboards are shared (not grabbed) by default
    # This Python process (the harness, and the Python clients' threads) yields the guest's two
    # CPUs to focusd, the compiled client and the reader, started above at nice 0: its JSON
    # parsing and bookkeeping for the previous message must not delay the process being timed.
    os.nice(10)
    offset = clock_offset()
    cpu_before = cpu_seconds(focusd.proc.pid)
    threads_before = thread_cpu(focusd.proc.pid)
    bare, bare_client, client, client_input, stamp_error, client_compiled = [], [], [], [], [], []
    repeats = 0

    def is_move_event(r):
        return ((r.get("event") or {}).get("kind") in ("focus", "blocked")
                and ((r["event"].get("cause") or {}).get("device") in (device, None)))
    for i in range(PRESSES):
        key, command = ("KEY_RIGHT", "right") if i % 2 == 0 else ("KEY_LEFT", "left")
        dev.send(f"press {key} {HOLD_MS}")
        press = reader.events(lambda e: e.code == key and e.value == 1, timeout=10)[-1]
        t, _ = focus.expect(is_move_event, 5, f"the focus event of press {i}")
        t_compiled, _ = compiled.expect(is_move_event, 5, f"the compiled client's focus event of press {i}")
        client_compiled.append((t_compiled - press.kernel) * 1e6)
        t_input, r = inputs.expect(is_command(command, "press", device), 5, f"the Input Monitor press {i}")
        stamp = r["command"]["eventTimeUsec"] / 1e6  # CLOCK_REALTIME
        # A held key repeats if the guest stalls past the repeat delay (a loaded host): each
        # repeat is one more move, whose focus events must be consumed here, not paired with
        # the next press.
        while True:
            _, r = inputs.expect(lambda r: is_command(command, None, device)(r), 5, f"the Input Monitor release {i}")
            if r["command"]["phase"] == "release":
                break
            repeats += 1
            focus.expect(is_move_event, 5, f"the focus event of a repeat of press {i}")
            compiled.expect(is_move_event, 5, f"the compiled client's focus event of a repeat of press {i}")
        bare.append((press.recv - press.kernel) * 1e6)
        bare_client.append((press.client - press.kernel) * 1e6)
        client.append((t - press.kernel) * 1e6)
        client_input.append((t_input + offset - stamp) * 1e6)
        stamp_error.append(abs(stamp - offset - press.kernel) * 1e6)
    cpu_per_press = (cpu_seconds(focusd.proc.pid) - cpu_before) / PRESSES * 1e6
    threads_after = thread_cpu(focusd.proc.pid)
    per_thread = ", ".join(f"{name} {(threads_after[name] - threads_before.get(name, 0)) / PRESSES * 1e6:.0f} us"
                           for name in sorted(threads_after) if threads_after[name] > threads_before.get(name, 0))
    check(len(client) == PRESSES, f"{len(client)} of {PRESSES} presses reached the client")
    # Each figure pairs a press with its own event: none can come before the press.
    check(min(client_compiled) > 0 and min(client) > 0,
          f"an event was paired with a press it came before (compiled min {min(client_compiled):.0f} us)")
    # eventTimeUsec is the kernel's timestamp, not a receive time (a few µs of clock-offset noise).
    check(percentile(stamp_error, 99) < 1000,
          f"eventTimeUsec differs from the kernel timestamp: {stats(stamp_error)}")
    size = focus_event_size(compiled, is_move_event)
    compiled.stop()
    focusd.stop()
    # The architecture's floor, focusd stopped: the same presses through 1 hop (reader thread ->
    # socket) and 2 hops (reader thread -> eventfd -> writer thread -> socket, focusd's threads).
    relays = {hops: relay_floor(dev, reader, hops, size) for hops in (1, 2)}
    dev.close()
    breakdown = focusd_breakdown()
    ratio = percentile(client, 50) / max(1.0, percentile(bare, 50))
    compiled_ratio = percentile(client_compiled, 50) / max(1.0, percentile(bare, 50))
    print(f"kernel->Focus Monitor at a compiled client (focusd-testdevice monitor): {stats(client_compiled)}, "
          f"median ratio {compiled_ratio:.1f}x the bare reader")
    print(f"bare reader at this client (pipe + Python): {stats(bare_client)}")
    print(f"Input Monitor (eventTimeUsec, CLOCK_REALTIME -> realtime at the client): {stats(client_input)}")
    print(f"focusd CPU time per press (press + release, three monitors): {cpu_per_press:.0f} us ({per_thread})")
    print(f"focusd's own times (CLOCK_REALTIME): {breakdown}")
    print(f"repeats of a held key (the guest stalled past the repeat delay): {repeats}")
    print(f"eventTimeUsec vs the reader's kernel timestamp: {stats(stamp_error)}")
    relay_ratios = {}
    for hops, (relay_bare, relay_client, relay_cpu, reader_cpu, relay_build) in relays.items():
        relay_ratios[hops] = percentile(relay_client, 50) / max(1.0, percentile(relay_bare, 50))
        print(f"relay floor, {hops} hop{'s' if hops > 1 else ''} ({hops + 1} wake-ups, {size}-byte message, {relay_build} build) at a compiled client: "
              f"{stats(relay_client)}, median ratio {relay_ratios[hops]:.1f}x the bare reader's {stats(relay_bare)} "
              f"({RELAY_PRESSES} presses; CPU per press + release: relay {relay_cpu:.0f} us, bare reader {reader_cpu:.0f} us)")
    floor = percentile(relays[2][1], 50)
    print(f"focusd (compiled client) / the 2-hop relay floor: median {percentile(client_compiled, 50) / max(1.0, floor):.1f}x; "
          f"the structure alone (3 wake-ups) is {relay_ratios[2]:.1f}x of the goal's 4x the bare reader "
          f"({floor / max(1.0, percentile(bare, 50)):.1f}x the bare reader of focusd's phase)")
    return (f"kernel->Focus Monitor client: {stats(client)}; compiled client: {stats(client_compiled)}; "
            f"bare reader: {stats(bare)}; median ratio {ratio:.1f}x (compiled {compiled_ratio:.1f}x) ({PRESSES} presses, {focusd.build} focusd, TCG guest, CLOCK_MONOTONIC; "
            f"bare reader at this client {stats(bare_client)}; Input Monitor on CLOCK_REALTIME {stats(client_input)}; "
            f"focusd's medians: {breakdown_medians(breakdown)}; "
            f"relay floor medians: 1 hop {percentile(relays[1][1], 50):.0f} us ({relay_ratios[1]:.1f}x), "
            f"2 hops {floor:.0f} us ({relay_ratios[2]:.1f}x), focusd compiled / 2 hops {percentile(client_compiled, 50) / max(1.0, floor):.1f}x)")


scenario(body)
