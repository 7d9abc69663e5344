# summary: 50 hotplug cycles while focusd runs: each device is listed, removed devices leave the list, and focusd's open fds return to their count before
# udev: required
# needs: focusd
# timeout: 300
import time

from realkernel import NAME_PREFIX, Device, Focusd, check, scenario, wait_until


def body():
    focusd = Focusd()
    time.sleep(1)
    before = focusd.fds()
    dev = Device("keyboard")
    ids = set()
    for cycle in range(50):
        ids.add(focusd.device_for(dev.node)["id"])
        dev.recreate()
    focusd.device_for(dev.node)
    dev.close()
    wait_until(lambda: not any(d["name"].startswith(NAME_PREFIX) for d in focusd.devices()),
               20, "focusd to drop the last device")
    wait_until(lambda: len(focusd.fds()) <= len(before), 10,
               f"focusd's fds to return to {len(before)} (now {len(focusd.fds())}: "
               f"{sorted(set(focusd.fds()) - set(before))})")
    check(not any(t.startswith("/dev/input/") for t in set(focusd.fds()) - set(before)),
          "focusd still holds an input node")
    focusd.stop()
    return f"50 cycles, {len(ids)} device ids, fds back to {len(before)}"


scenario(body)
