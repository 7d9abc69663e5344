# summary: without udevd (inotify discovery, classification from capabilities), every class but the touchpad moves focus; the touchpad is listed, unused, with a problem
# udev: none
# needs: focusd
# timeout: 180
import os

from realkernel import Device, EXPECTED_CLASS, Focusd, check, each_class_moves_focus, scenario, wait_until


def body():
    check(not os.path.exists("/run/udev/control"), "udevd is running")
    focusd = Focusd()
    result = each_class_moves_focus(focusd, [m for m in EXPECTED_CLASS if m != "touchpad"])
    # libinput needs udevd's database: the touchpad is listed with a problem, never dropped.
    pad = Device("touchpad")
    found = {}
    wait_until(lambda: any(d["node"] == pad.node and found.setdefault("d", d) for d in focusd.devices()),
               20, "focusd to list the touchpad")
    check(found["d"].get("problem"), f"the touchpad is listed without a problem: {found['d']}")
    pad.close()
    focusd.stop()
    return result + " touchpad:problem"


scenario(body)
