# summary: latency from the kernel's event timestamp to a Focus Monitor event at a client, median and p99 over 1,000 presses, against the bare reader's floor
# udev: any
# needs: focusd
# timeout: 300
from realkernel import Device, Focusd, Monitor, Reader, check, percentile, scenario

PRESSES = 1000


def body():
    focusd = Focusd()
    monitor = Monitor(focusd)
    dev = Device("keyboard")
    device = focusd.device_for(dev.node)["id"]
    reader = Reader(dev.node)  # keyboards are shared (not grabbed) by default
    kernel, bare, client = [], [], []
    for i in range(PRESSES):
        key = "KEY_RIGHT" if i % 2 == 0 else "KEY_LEFT"
        dev.send(f"press {key} 1")
        press = reader.events(lambda e: e.code == key and e.value == 1, timeout=10)[-1]
        t, _ = monitor.expect(lambda r: (r.get("event") or {}).get("kind") in ("focus", "blocked")
                              and ((r["event"].get("cause") or {}).get("device") in (device, None)),
                              5, f"the focus event of press {i}")
        kernel.append(press.kernel)
        bare.append((press.recv - press.kernel) * 1e6)
        client.append((t - press.kernel) * 1e6)
    check(len(client) == PRESSES, f"{len(client)} of {PRESSES} presses reached the client")
    dev.close()
    focusd.stop()
    return (f"kernel->Monitor client: median {percentile(client, 50):.0f} us, p99 {percentile(client, 99):.0f} us; "
            f"bare reader: median {percentile(bare, 50):.0f} us, p99 {percentile(bare, 99):.0f} us "
            f"({PRESSES} presses, TCG guest)")


scenario(body)
