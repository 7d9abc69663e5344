# summary: a node focusd cannot open yet (EACCES) is listed with a problem, and opened once it becomes readable (IN_ATTRIB), without udevd
# udev: none
# needs: focusd
# timeout: 90
import os

from realkernel import Device, Focusd, check, scenario, wait_until

# focusd runs as the user nobody: devtmpfs makes the node root:root 0600 and no udev rule changes
# it, so the first open fails with EACCES; the chmod is the "ACL applied later".


def body():
    focusd = Focusd(as_user="nobody")
    dev = Device("keyboard")
    found = {}
    wait_until(lambda: any(d["node"] == dev.node and found.setdefault("d", d) for d in focusd.devices()),
               20, "focusd to list the unreadable node")
    check(found["d"].get("problem"), f"an unreadable node is listed without a problem: {found['d']}")
    os.chmod(dev.node, 0o644)
    listed = focusd.device_for(dev.node, timeout=20)
    dev.close()
    focusd.stop()
    return f"listed with problem {found['d']['problem']!r}, opened after chmod as {listed['id']}"


scenario(body)
