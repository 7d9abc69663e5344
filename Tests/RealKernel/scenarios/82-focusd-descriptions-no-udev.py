# summary: without udevd, a dozen real device descriptions as uinput nodes: ListDevices gives the class and grab `focusd classify --no-udev` prints, and another reader still gets the pointer's and the hotkeys node's events
# udev: none
# needs: focusd
# timeout: 240
import os

from descriptions import HOTKEYS, POINTER, UinputDevice, another_reader_receives, chosen, classify, grab_settled, listed
from realkernel import Focusd, check, scenario


def body():
    check(not os.path.exists("/run/udev/control"), "udevd is running")
    focusd = Focusd()
    devices = [UinputDevice(d) for d in chosen()]
    live = [listed(focusd, d.node) for d in devices]
    answers = classify([d.description for d in devices], no_udev=True)
    summary = []
    for device, entry, answer in zip(devices, live, answers):
        name = device.description["name"]
        check(entry["class"] == answer["class"],
              f"{name}: ListDevices says {entry['class']}, focusd classify --no-udev {answer['class']} ({answer['reasons']})")
        grabbed = grab_settled(focusd, device.node, answer["grab"] == "exclusive")["grabbed"]
        check(grabbed == (answer["grab"] == "exclusive"), f"{name}: grabbed={grabbed}, focusd classify --no-udev says grab {answer['grab']}")
        check(entry.get("reasons") == answer["reasons"], f"{name}: reasons differ: {entry.get('reasons')} / {answer['reasons']}")
        summary.append(f"{entry['class']}/{answer['grab']}")
    pointer = next(d for d in devices if d.description["source"].endswith(POINTER))
    hotkeys = next(d for d in devices if d.description["source"].endswith(HOTKEYS))
    n1 = another_reader_receives(pointer, [("EV_REL", "REL_WHEEL", 1)], ("EV_REL", "REL_WHEEL", 1))
    n2 = another_reader_receives(hotkeys, [("EV_SW", "SW_TABLET_MODE", 1)], ("EV_SW", "SW_TABLET_MODE", 1))
    for device in devices:
        device.close()
    focusd.stop()
    return f"{len(devices)} nodes: " + " ".join(summary) + f"; another reader got the pointer's and hotkeys' events ({n1}+{n2})"


scenario(body)
