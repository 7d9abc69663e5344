# summary: with udevd, a dozen real device descriptions as uinput nodes: ListDevices gives the class and grab `focusd classify` prints, udev's ID_INPUT_* equal focusd's derivation, and another reader still gets the pointer's and the hotkeys node's events
# udev: required
# needs: focusd
# timeout: 240
import copy

from descriptions import HOTKEYS, POINTER, UinputDevice, another_reader_receives, chosen, classify, grab_settled, listed
from realkernel import Focusd, check, run_checked, scenario, udev_properties

CLASSES = ["ID_INPUT_ACCELEROMETER", "ID_INPUT_TABLET_PAD", "ID_INPUT_TABLET", "ID_INPUT_TOUCHSCREEN",
           "ID_INPUT_TOUCHPAD", "ID_INPUT_JOYSTICK", "ID_INPUT_POINTINGSTICK", "ID_INPUT_MOUSE",
           "ID_INPUT_KEYBOARD", "ID_INPUT_KEY", "ID_INPUT_SWITCH"]


def derived_classes(answer):
    """The classes focusd derives without udevd, from the first reason of `classify --no-udev`."""
    first = answer["reasons"][0]
    prefix = "no udevd; udev's input_id rules give "
    check(first.startswith(prefix), f"classify --no-udev's first reason is not the derivation: {first}")
    rest = first[len(prefix):]
    return set() if rest == "no class" else set(rest.split(", "))


def body():
    focusd = Focusd()
    descriptions = chosen()
    devices = [UinputDevice(d) for d in descriptions]
    live = [listed(focusd, d.node) for d in devices]
    # The same description with the properties udevd really gave the node.
    real = []
    for device in devices:
        properties = udev_properties(device.node)
        described = copy.deepcopy(device.description)
        described["udev"] = {k: v for k, v in properties.items() if k.startswith("ID_INPUT") or k.startswith("FOCUSD")}
        real.append(described)
    answers = classify(real, no_udev=False)
    derived = classify([d.description for d in devices], no_udev=True)
    summary = []
    for device, entry, answer, bare, described in zip(devices, live, answers, derived, real):
        name = device.description["name"]
        check(entry["class"] == answer["class"],
              f"{name}: ListDevices says {entry['class']}, focusd classify {answer['class']} ({answer['reasons']})")
        grabbed = grab_settled(focusd, device.node, answer["grab"] == "exclusive")["grabbed"]
        check(grabbed == (answer["grab"] == "exclusive"), f"{name}: grabbed={grabbed}, focusd classify says grab {answer['grab']}")
        check(entry.get("reasons") == answer["reasons"], f"{name}: reasons differ: {entry.get('reasons')} / {answer['reasons']}")
        # udevd's input_id builtin alone (hwdb and rules add their own knowledge on top, which
        # focusd takes from udevd when it runs): its classes are the ones focusd derives, but for
        # udev 252's joystick guess that systemd 254 and focusd take back, which must be named.
        builtin = run_checked(["udevadm", "test-builtin", "input_id", "/sys/class/input/" + device.node.split("/")[-1]],
                              f"udevadm test-builtin input_id {device.node}")
        udev = {line.split("=")[0] for line in builtin.splitlines() if line.split("=")[0] in CLASSES and line.endswith("=1")}
        mine = derived_classes(bare)
        allowed = {"ID_INPUT_JOYSTICK"} if "udev's ID_INPUT_JOYSTICK not taken" in " ".join(answer["reasons"]) else set()
        check(udev ^ mine <= allowed, f"{name}: udev's input_id gives {sorted(udev)}, focusd derives {sorted(mine)}")
        full = {k for k, v in described["udev"].items() if k in CLASSES and v == "1"}
        note = "".join(f"+{k[9:].lower()}" for k in sorted(full - mine))
        summary.append(f"{entry['class']}/{answer['grab']}{note and '(udev' + note + ')'}")
    by_source = {d.description["source"]: d for d in devices}
    pointer = next(d for s, d in by_source.items() if s.endswith(POINTER))
    hotkeys = next(d for s, d in by_source.items() if s.endswith(HOTKEYS))
    n1 = another_reader_receives(pointer, [("EV_REL", "REL_WHEEL", 1)], ("EV_REL", "REL_WHEEL", 1))
    n2 = another_reader_receives(hotkeys, [("EV_SW", "SW_TABLET_MODE", 1)], ("EV_SW", "SW_TABLET_MODE", 1))
    n3 = another_reader_receives(hotkeys, [("EV_KEY", "KEY_INFO", 1)], ("EV_KEY", "KEY_INFO", 1))
    hotkeys.emit(("EV_KEY", "KEY_INFO", 0))
    for device in devices:
        device.close()
    focusd.stop()
    return f"{len(devices)} nodes: " + " ".join(summary) + f"; another reader got the pointer's and hotkeys' events ({n1}+{n2}+{n3})"


scenario(body)
