# summary: the bare reader's latency (kernel timestamp to receive time) over 1,000 presses: the floor for focusd's figure
# udev: none
# timeout: 180
from realkernel import Device, Reader, check, percentile, scenario

PRESSES = 1000


def body():
    dev = Device("keyboard")
    reader = Reader(dev.node)
    # A press every ~10 ms (held 1 ms): paced like fast typing, so the figure is the path's
    # latency, not a queue; the reader would need to stall ~150 ms to overflow its buffer.
    script = []
    for _ in range(PRESSES):
        script += ["press KEY_RIGHT 1", "sleep 9"]
    dev.send(*script, "echo played")
    releases = 0

    def last_release(e):
        nonlocal releases
        releases += e.code == "KEY_RIGHT" and e.value == 0
        return releases == PRESSES or e.code == "SYN_DROPPED"

    events = reader.events(last_release, timeout=150)
    check(events[-1].code != "SYN_DROPPED",
          f"the reader fell behind (SYN_DROPPED after {releases} presses): the guest is starved of CPU")
    presses = [e for e in events if e.code == "KEY_RIGHT" and e.value == 1]
    check(len(presses) == PRESSES, f"{len(presses)} presses read, expected {PRESSES}")
    latencies = [(e.recv - e.kernel) * 1e6 for e in presses]
    check(min(latencies) >= 0, f"an event was received before its kernel timestamp ({min(latencies):.0f} us)")
    dev.close()
    reader.stop()
    return (f"bare reader over {PRESSES} presses: median {percentile(latencies, 50):.0f} us, "
            f"p99 {percentile(latencies, 99):.0f} us, max {max(latencies):.0f} us (TCG guest)")


scenario(body)
