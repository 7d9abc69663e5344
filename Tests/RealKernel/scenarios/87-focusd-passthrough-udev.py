# summary: with udevd and 70-focusd.rules, /dev/uinput belongs to user focusd, focusd running as that user makes a grabbed remote's pass-through device, and udev tags that node power-switch and FOCUSD_IGNORE=1 while focusd never lists it
# udev: required
# needs: focusd
# timeout: 180
import os
import pwd

from realkernel import Device, Focusd, FocusdRules, Reader, check, run_checked, scenario, udev_properties, wait_until


def body():
    rules = FocusdRules()
    dev = None
    focusd = None
    try:
        run_checked(["udevadm", "trigger", "--action=change", "--settle", "/sys/devices/virtual/misc/uinput"],
                    "udevadm trigger uinput")
        owner = os.stat("/dev/uinput").st_uid
        check(owner == pwd.getpwnam("focusd").pw_uid, f"/dev/uinput belongs to uid {owner}, not focusd")
        dev = Device("remote")
        focusd = Focusd(as_user="focusd")
        found = {}

        def ready():
            d = focusd.device_for(dev.node)
            found["d"] = d
            return d["grabbed"] and d.get("passthrough")

        wait_until(ready, 20, "focusd (user focusd) to grab the remote and make its pass-through device")
        pt = found["d"]["passthrough"]
        props = udev_properties(pt)
        tags = props.get("CURRENT_TAGS", props.get("TAGS", ""))
        check(":power-switch:" in tags, f"pass-through node {pt} tags {tags!r}: no power-switch")
        check(props.get("FOCUSD_IGNORE") == "1", f"pass-through node {pt}: FOCUSD_IGNORE={props.get('FOCUSD_IGNORE')}")
        check(all(d["node"] != pt for d in focusd.devices()), "focusd lists its own pass-through device")
        # KEY_POWER reaches a reader of the pass-through node (logind would be one).
        reader = Reader(pt)
        dev.send("key KEY_POWER 1", "syn", "key KEY_POWER 0", "syn")
        got = [(e.code, e.value) for e in reader.events(lambda e: e.code == "KEY_POWER" and e.value == 0, timeout=10)]
        check(got == [("KEY_POWER", 1), ("KEY_POWER", 0)], f"pass-through reader got {got}")
        reader.stop()
        return f"/dev/uinput owned by focusd; pass-through {pt} tagged power-switch and FOCUSD_IGNORE=1; KEY_POWER passed"
    finally:
        if dev:
            dev.close()
        if focusd:
            focusd.stop()
        rules.remove()


scenario(body)
