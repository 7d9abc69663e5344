"""Real uinput nodes made from device descriptions (input.md section 9), for scenarios 81 and 82.

Each description of Tests/InputMappingTests/Devices/*.json becomes a uinput device with exactly its
name, ids, event codes, properties and absinfo (through the kernel's uinput ioctls, no library),
so that what focusd decides for the live node can be compared with what `focusd classify` prints
for the description, and udevd's ID_INPUT_* with what focusd derives without it.
"""

import fcntl
import json
import os
import struct
import subprocess
import tempfile
import time

from realkernel import FOCUSD, Reader, check, wait_until

REPO = os.environ.get("RK_REPO", "")
DEVICES = os.path.join(REPO, "Tests/InputMappingTests/Devices")

# A dozen descriptions, by the end of their `source`: a VM tablet pointer, a hotkeys node with
# switches, a tablet pad's dial, laptop keys with a stray joystick button, a lid switch, a wheel,
# a keyboard, a gamepad, a knob, an IR receiver, an HDMI-CEC adapter and a Bluetooth TV remote.
CHOSEN = [
    "litest-device-qemu-usb-tablet.c", "litest-device-hp-wmi-hotkeys.c", "litest-device-huion-q620m-dial.c",
    "litest-device-sony-vaio-keys.c", "litest-device-lid-switch.c", "litest-device-wheel-only.c",
    "litest-device-generic-usb-keyboard.c", "xpad (drivers/input/joystick/xpad.c) Xbox 360 pad",
    "powermate (drivers/input/misc/powermate.c)", "rc_prepare_rx_device", "(media/cec/core/cec-core.c)",
    "one node of consumer-page keys",
]
POINTER = "litest-device-qemu-usb-tablet.c"
HOTKEYS = "litest-device-hp-wmi-hotkeys.c"

EV = {"EV_SYN": 0, "EV_KEY": 1, "EV_REL": 2, "EV_ABS": 3, "EV_MSC": 4, "EV_SW": 5, "EV_LED": 0x11, "EV_REP": 0x14,
      "EV_FF": 0x15}
SET_BIT = {"EV_KEY": 101, "EV_REL": 102, "EV_ABS": 103, "EV_MSC": 104, "EV_LED": 105, "EV_FF": 107, "EV_SW": 109}


def _iow(nr, size):
    return (1 << 30) | (size << 16) | (ord("U") << 8) | nr


UI_DEV_CREATE = ord("U") << 8 | 1
UI_DEV_DESTROY = ord("U") << 8 | 2
UI_DEV_SETUP = _iow(3, 92)
UI_ABS_SETUP = _iow(4, 28)
UI_SET_EVBIT = _iow(100, 4)
UI_SET_PROPBIT = _iow(110, 4)
UI_GET_SYSNAME = (2 << 30) | (64 << 16) | (ord("U") << 8) | 44


def codes():
    """Every name of linux/input-event-codes.h and linux/input.h (BUS_*, FF_*) to its number."""
    table = {}
    for header in ("/usr/include/linux/input-event-codes.h", "/usr/include/linux/input.h"):
        for line in open(header):
            parts = line.split()
            if len(parts) >= 3 and parts[0] == "#define":
                try:
                    table[parts[1]] = int(parts[2], 0)
                except ValueError:
                    if parts[2] in table:
                        table[parts[1]] = table[parts[2]]
    return table


CODES = codes()


def code(value):
    return value if isinstance(value, int) else CODES[value] if not value.isdigit() else int(value)


def chosen():
    """The chosen descriptions, in CHOSEN's order."""
    every = []
    for name in ("libinput", "remotes", "pads-and-knobs"):
        with open(os.path.join(DEVICES, name + ".json")) as f:
            every += json.load(f)
    found = []
    for end in CHOSEN:
        match = [d for d in every if d["source"].endswith(end)]
        check(len(match) == 1, f"one description ends with {end!r}: {len(match)}")
        found.append(match[0])
    return found


class UinputDevice:
    """A uinput node with exactly a description's name, ids, codes, properties and absinfo."""

    def __init__(self, description):
        self.description = description
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
        events = description["events"]
        for kind in events:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV[kind])
            if kind in SET_BIT:
                for c in events[kind]:
                    fcntl.ioctl(self.fd, _iow(SET_BIT[kind], 4), code(c))
        for p in description.get("properties", []):
            fcntl.ioctl(self.fd, UI_SET_PROPBIT, code(p))
        name = description["name"].encode()[:79]
        ff = 16 if events.get("EV_FF") else 0
        fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack(
            "<HHHH80sI", description.get("bus", 0), description.get("vendor", 0), description.get("product", 0),
            description.get("version", 0), name, ff))
        for axis, info in events.get("EV_ABS", {}).items():
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack(
                "<H2xiiiiii", code(axis), 0, info["min"], info["max"], info.get("fuzz", 0), info.get("flat", 0),
                info.get("resolution", 0)))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        sysname = bytearray(64)
        fcntl.ioctl(self.fd, UI_GET_SYSNAME, sysname, True)
        input_name = sysname.split(b"\0")[0].decode()
        directory = f"/sys/devices/virtual/input/{input_name}"
        found = {}
        wait_until(lambda: any(e.startswith("event") and found.setdefault("e", e) for e in os.listdir(directory)),
                   20, f"the event node of {description['name']}")
        self.node = "/dev/input/" + found["e"]
        wait_until(lambda: os.path.exists(self.node), 20, f"{self.node} to appear")

    def emit(self, *events):
        """Writes (type name, code name, value) events, each batch ended by SYN_REPORT."""
        for kind, c, value in list(events) + [("EV_SYN", "SYN_REPORT", 0)]:
            os.write(self.fd, struct.pack("<qqHHi", 0, 0, EV[kind], code(c), value))

    def close(self):
        fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        os.close(self.fd)


def classify(descriptions, no_udev):
    """`focusd classify [--no-udev]` on the descriptions, one answer each."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(descriptions, f)
    out = subprocess.run([FOCUSD, "classify"] + (["--no-udev"] if no_udev else []) + [f.name],
                         capture_output=True, text=True)
    check(out.returncode == 0, f"focusd classify: exit {out.returncode}: {out.stderr.strip()}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def listed(focusd, node, timeout=30):
    """The ListDevices entry of `node` once focusd decided about it (its reasons are set)."""
    found = {}

    def decided():
        for d in focusd.devices():
            if d["node"] == node and d.get("reasons"):
                found["d"] = d
                return True
        return False

    wait_until(decided, timeout, f"focusd to list {node} with its reasons")
    return found["d"]


def grab_settled(focusd, node, exclusive, timeout=5):
    """`node`'s ListDevices entry once its `grabbed` is `exclusive`, or the last entry read when
    `timeout` passes (for the caller's check to name). The grab follows the decision: focusd asks
    the kernel which keys are down first (input.md §6), so an entry listed with its reasons may not
    be grabbed yet (scenarios 81-83 read it with the listing and failed now and then)."""
    deadline = time.monotonic() + timeout
    while True:
        entry = next(d for d in focusd.devices() if d["node"] == node)
        if entry["grabbed"] == exclusive or time.monotonic() > deadline:
            return entry
        time.sleep(0.01)


def another_reader_receives(device, events, expect):
    """A second reader (the bare libevdev reader) gets `device`'s events while focusd runs."""
    reader = Reader(device.node)
    try:
        time.sleep(0.2)
        device.emit(*events)
        got = reader.events(lambda e: (e.type, e.code, e.value) == expect, timeout=10)
        return len(got)
    finally:
        reader.stop()
