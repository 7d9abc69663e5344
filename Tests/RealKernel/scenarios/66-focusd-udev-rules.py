# summary: with 70-focusd.rules, focusd lists a FOCUSD_IGNORE=1 device without opening it, opens the others, and counts a knob's detents by its FOCUSD_COUNTS_PER_DETENT hint
# udev: required
# needs: focusd
# timeout: 120
from realkernel import (IGNORE_NAME, Device, Focusd, FocusdRules, Monitor, check, is_command, scenario,
                        udev_properties, wait_until)

# An integrator's hint for a knob no rule knows (the `knob` model, 1111:2222; focusd's own
# default for an unknown REL_DIAL is 1 count per detent): 3 counts per detent.
KNOB_HINT = ('SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="1111", ATTRS{id/product}=="2222", '
             'ENV{ID_INPUT_FOCUSD_ROTARY}="1", ENV{FOCUSD_COUNTS_PER_DETENT}="3"\n')


def body():
    rules = FocusdRules(extra=KNOB_HINT)
    devices = []
    try:
        return run(devices)
    finally:
        for dev in devices:
            dev.close()
        rules.remove()


def detents(dev, inputs, device, counts, what):
    """Sends REL_DIAL counts in steps of one count short of a detent, then the last count."""
    dev.send(f"rel REL_DIAL {counts - 1}", "syn")
    dev.sync()
    inputs.none(is_command("crown", "rotate", device), 0.7, f"{what}: a detent after {counts - 1} counts")
    dev.send("rel REL_DIAL 1", "syn")
    _, r = inputs.expect(is_command("crown", "rotate", device), 5, f"{what}: the detent at {counts} counts")
    check(r["command"]["detents"] == 1, f"{what}: {counts} counts gave {r['command']['detents']} detents")


def run(devices):
    for model, name in (("keyboard", None), ("keyboard", IGNORE_NAME), ("knob", None), ("powermate", None)):
        devices.append(Device(model, name=name))
    keyboard, ignored, knob, powermate = devices
    check(udev_properties(knob.node).get("FOCUSD_COUNTS_PER_DETENT") == "3", "the knob hint rule did not apply")
    focusd = Focusd()
    inputs = Monitor(focusd, interface="io.focusd.Input")
    focusd.device_for(keyboard.node)
    found = {}
    wait_until(lambda: any(d["node"] == ignored.node and found.setdefault("d", d) for d in focusd.devices()),
               20, "focusd to list the ignored keyboard")
    problem = found["d"].get("problem") or ""
    check("FOCUSD_IGNORE" in problem, f"the ignored keyboard is listed with problem {problem!r}")
    fds = focusd.fds()
    check(ignored.node not in fds, f"focusd holds the ignored node {ignored.node}")
    check(keyboard.node in fds, f"focusd does not hold the keyboard's node {keyboard.node}: {sorted(fds)}")
    knob_id = focusd.device_for(knob.node)["id"]
    detents(knob, inputs, knob_id, 3, "knob with hint 3")
    detents(powermate, inputs, focusd.device_for(powermate.node)["id"], 4, "powermate with hint 4")
    focusd.stop()
    return f"ignored keyboard listed ({problem!r}) and not opened; knob: 3 counts per detent by hint; powermate: 4"


scenario(body)
