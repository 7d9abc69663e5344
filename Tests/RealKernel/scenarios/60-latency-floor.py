# summary: the bare reader's latency (kernel timestamp to receive time) over 1,000 presses: the floor for focusd's figure
# udev: none
# timeout: 180
from realkernel import Device, Reader, check, percentile, scenario

PRESSES = 1000


def body():
    dev = Device("keyboard")
    reader = Reader(dev.node)
    # 1 ms between press and release, no pause between presses: the reader must keep up.
    dev.send(*[f"press KEY_RIGHT 1" for _ in range(PRESSES)], "echo played")
    releases = 0

    def last_release(e):
        nonlocal releases
        releases += e.code == "KEY_RIGHT" and e.value == 0
        return releases == PRESSES

    events = reader.events(last_release, timeout=150)
    presses = [e for e in events if e.code == "KEY_RIGHT" and e.value == 1]
    check(len(presses) == PRESSES, f"{len(presses)} presses read, expected {PRESSES}")
    latencies = [(e.recv - e.kernel) * 1e6 for e in presses]
    check(min(latencies) >= 0, f"an event was received before its kernel timestamp ({min(latencies):.0f} us)")
    dev.close()
    reader.stop()
    return (f"bare reader over {PRESSES} presses: median {percentile(latencies, 50):.0f} us, "
            f"p99 {percentile(latencies, 99):.0f} us, max {max(latencies):.0f} us (TCG guest)")


scenario(body)
