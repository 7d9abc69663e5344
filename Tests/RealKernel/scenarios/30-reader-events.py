# summary: a bare libevdev reader receives each simulator's scripted events with the right codes, values and monotonic kernel timestamps
# udev: none
# timeout: 120
from realkernel import Device, Reader, check, scenario

# model -> (script, the events the reader must see, without SYN_REPORT, in order).
CASES = {
    "keyboard": (["press KEY_RIGHT", "press KEY_ENTER"],
                 [("EV_KEY", "KEY_RIGHT", 1), ("EV_KEY", "KEY_RIGHT", 0),
                  ("EV_KEY", "KEY_ENTER", 1), ("EV_KEY", "KEY_ENTER", 0)]),
    "xbox360": (["abs ABS_HAT0X 1", "syn", "abs ABS_HAT0X 0", "syn", "press BTN_SOUTH",
                 "abs ABS_X 30000", "syn", "abs ABS_X 0", "syn"],
                [("EV_ABS", "ABS_HAT0X", 1), ("EV_ABS", "ABS_HAT0X", 0),
                 ("EV_KEY", "BTN_SOUTH", 1), ("EV_KEY", "BTN_SOUTH", 0),
                 ("EV_ABS", "ABS_X", 30000), ("EV_ABS", "ABS_X", 0)]),
    "powermate": (["rel REL_DIAL 4", "syn", "rel REL_DIAL -2", "syn", "press BTN_0"],
                  [("EV_REL", "REL_DIAL", 4), ("EV_REL", "REL_DIAL", -2),
                   ("EV_KEY", "BTN_0", 1), ("EV_KEY", "BTN_0", 0)]),
    "surface-dial": (["rel REL_DIAL 100", "syn", "press BTN_0"],
                     [("EV_REL", "REL_DIAL", 100), ("EV_KEY", "BTN_0", 1), ("EV_KEY", "BTN_0", 0)]),
    # HID reports through uhid, turned into events by the kernel's HID driver.
    "surface-dial-hid": (["rel REL_DIAL 100", "syn", "rel REL_DIAL -30", "syn", "press BTN_0"],
                         [("EV_REL", "REL_DIAL", 100), ("EV_REL", "REL_DIAL", -30),
                          ("EV_KEY", "BTN_0", 1), ("EV_KEY", "BTN_0", 0)]),
    "mouse": (["rel REL_WHEEL 1", "rel REL_WHEEL_HI_RES 120", "syn", "rel REL_X 5", "rel REL_Y -3", "syn",
               "press BTN_LEFT"],
              [("EV_REL", "REL_WHEEL", 1), ("EV_REL", "REL_WHEEL_HI_RES", 120),
               ("EV_REL", "REL_X", 5), ("EV_REL", "REL_Y", -3),
               ("EV_KEY", "BTN_LEFT", 1), ("EV_KEY", "BTN_LEFT", 0)]),
}


def body():
    for model, (script, expected) in CASES.items():
        dev = Device(model)
        reader = Reader(dev.node)
        dev.send(*script)
        last = expected[-1]
        got = reader.events(lambda e: (e.type, e.code, e.value) == last, timeout=20)
        got = [(e.type, e.code, e.value) for e in got if e.type != "EV_MSC"]
        check(got == expected, f"{model}: got {got}, expected {expected}")
        dev.close()
        reader.stop()

    # The remote: rc-core frames. Held for 6 frames (~540 ms, past REP_DELAY 500 ms) the kernel
    # repeats it (value 2); the key-up comes by timeout >= 164 ms after the last frame.
    dev = Device("remote")
    reader = Reader(dev.node)
    dev.send("ir KEY_OK 6")
    events = reader.events(lambda e: e.type == "EV_KEY" and e.value == 0, timeout=20, syn=True)
    keys = [e for e in events if e.type == "EV_KEY"]
    scans = [e for e in events if e.type == "EV_MSC" and e.code == "MSC_SCAN"]
    check(keys[0].code == "KEY_OK" and keys[0].value == 1, f"remote: first key event {keys[0]}")
    check(all(k.code == "KEY_OK" for k in keys), f"remote: other keys in {keys}")
    check(any(k.value == 2 for k in keys), f"remote: no kernel repeat while held: {keys}")
    check(len(scans) == 6, f"remote: {len(scans)} MSC_SCAN frames, expected 6")
    gap = keys[-1].kernel - scans[-1].kernel
    check(0.164 <= gap < 1.0, f"remote: key-up {gap * 1000:.0f} ms after the last frame, expected >= 164 ms")
    for a, b in zip(events, events[1:]):
        check(b.kernel >= a.kernel, f"remote: kernel timestamps go backwards: {a.kernel} then {b.kernel}")
        check(b.recv >= b.kernel, f"remote: received before the kernel timestamp: {b.kernel} > {b.recv}")
    dev.close()
    reader.stop()
    repeats = sum(1 for k in keys if k.value == 2)

    # The touchpad: a one-finger swipe right: a tracking id, x growing, then lifted.
    dev = Device("touchpad")
    reader = Reader(dev.node)
    dev.send("swipe right")
    events = reader.events(lambda e: e.code == "BTN_TOUCH" and e.value == 0, timeout=20)
    ids = [e.value for e in events if e.code == "ABS_MT_TRACKING_ID"]
    xs = [e.value for e in events if e.code == "ABS_MT_POSITION_X"]
    check(len(ids) == 2 and ids[0] >= 0 and ids[1] == -1, f"touchpad: tracking ids {ids}")
    check(len(xs) >= 5 and xs == sorted(xs) and xs[-1] > xs[0], f"touchpad: x positions {xs}")
    check(("EV_KEY", "BTN_TOOL_FINGER", 1) in [(e.type, e.code, e.value) for e in events], "touchpad: no BTN_TOOL_FINGER")
    dev.close()
    reader.stop()
    return f"{len(CASES) + 2} models; remote held 6 frames gave {repeats} kernel repeats and key-up {gap * 1000:.0f} ms after its last frame"


scenario(body)
