# summary: latency from the kernel's event timestamp to a Focus Monitor event at a client, median and p99 over 1,000 presses, against the bare reader's floor
# udev: any
# needs: focusd
# timeout: 300
#
# Clocks: the bare reader asks evdev for CLOCK_MONOTONIC timestamps (EVIOCSCLOCKID) and this
# client stamps replies with time.monotonic(), so kernel -> client is measured on one clock.
# focusd's `eventTimeUsec` (io.focusd.Input.Command) is the same kernel timestamp in
# CLOCK_REALTIME µs (evdev stamps one event on every clock at once): it is checked against the
# reader's, through the offset between the two clocks, and gives the same figure on the
# realtime clock.
import os
import time

from realkernel import CompiledMonitor, Device, Focusd, Monitor, Reader, check, is_command, percentile, scenario

PRESSES = 1000


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


def stats(values):
    return f"median {percentile(values, 50):.0f} us, p99 {percentile(values, 99):.0f} us"


def body():
    focusd = Focusd()
    focus = Monitor(focusd)
    compiled = CompiledMonitor(focusd)  # a third monitor: the figure without Python's costs
    inputs = Monitor(focusd, interface="io.focusd.Input")
    dev = Device("keyboard")
    device = focusd.device_for(dev.node)["id"]
    reader = Reader(dev.node)  # keyboards are shared (not grabbed) by default
    offset = clock_offset()
    cpu_before = cpu_seconds(focusd.proc.pid)
    bare, bare_client, client, client_input, stamp_error, client_compiled = [], [], [], [], [], []
    for i in range(PRESSES):
        key, command = ("KEY_RIGHT", "right") if i % 2 == 0 else ("KEY_LEFT", "left")
        dev.send(f"press {key} 1")
        press = reader.events(lambda e: e.code == key and e.value == 1, timeout=10)[-1]
        t, _ = focus.expect(lambda r: (r.get("event") or {}).get("kind") in ("focus", "blocked")
                            and ((r["event"].get("cause") or {}).get("device") in (device, None)),
                            5, f"the focus event of press {i}")
        t_compiled, _ = compiled.expect(lambda r: (r.get("event") or {}).get("kind") in ("focus", "blocked")
                                        and ((r["event"].get("cause") or {}).get("device") in (device, None)),
                                        5, f"the compiled client's focus event of press {i}")
        client_compiled.append((t_compiled - press.kernel) * 1e6)
        t_input, r = inputs.expect(is_command(command, "press", device), 5, f"the Input Monitor press {i}")
        stamp = r["command"]["eventTimeUsec"] / 1e6  # CLOCK_REALTIME
        bare.append((press.recv - press.kernel) * 1e6)
        bare_client.append((press.client - press.kernel) * 1e6)
        client.append((t - press.kernel) * 1e6)
        client_input.append((t_input + offset - stamp) * 1e6)
        stamp_error.append(abs(stamp - offset - press.kernel) * 1e6)
    cpu_per_press = (cpu_seconds(focusd.proc.pid) - cpu_before) / PRESSES * 1e6
    check(len(client) == PRESSES, f"{len(client)} of {PRESSES} presses reached the client")
    # eventTimeUsec is the kernel's timestamp, not a receive time (a few µs of clock-offset noise).
    check(percentile(stamp_error, 99) < 1000,
          f"eventTimeUsec differs from the kernel timestamp: {stats(stamp_error)}")
    dev.close()
    compiled.stop()
    focusd.stop()
    ratio = percentile(client, 50) / max(1.0, percentile(bare, 50))
    compiled_ratio = percentile(client_compiled, 50) / max(1.0, percentile(bare, 50))
    print(f"kernel->Focus Monitor at a compiled client (focusd-testdevice monitor): {stats(client_compiled)}, "
          f"median ratio {compiled_ratio:.1f}x the bare reader")
    print(f"bare reader at this client (pipe + Python): {stats(bare_client)}")
    print(f"Input Monitor (eventTimeUsec, CLOCK_REALTIME -> realtime at the client): {stats(client_input)}")
    print(f"focusd CPU time per press (press + release, three monitors): {cpu_per_press:.0f} us")
    print(f"eventTimeUsec vs the reader's kernel timestamp: {stats(stamp_error)}")
    return (f"kernel->Focus Monitor client: {stats(client)}; compiled client: {stats(client_compiled)}; "
            f"bare reader: {stats(bare)}; median ratio {ratio:.1f}x (compiled {compiled_ratio:.1f}x) ({PRESSES} presses, TCG guest, CLOCK_MONOTONIC; "
            f"bare reader at this client {stats(bare_client)}; Input Monitor on CLOCK_REALTIME {stats(client_input)})")


scenario(body)
