# summary: unplugging a keyboard while a direction repeats sends the release and no further repeat or move
# udev: any
# needs: focusd
# timeout: 60
from realkernel import Device, Focusd, Monitor, check, is_command, is_move, scenario


def body():
    focusd = Focusd()
    focus = Monitor(focusd)
    inputs = Monitor(focusd, interface="io.focusd.Input")
    dev = Device("keyboard")
    device = focusd.device_for(dev.node)["id"]
    dev.send("key KEY_RIGHT 1", "syn")
    inputs.expect(is_command("right", "press", device), 5, "the press")
    inputs.expect(is_command("right", "repeat", device), 2, "focusd's own repeat (first after 400 ms)")
    dev.send("destroy")
    dev.proc.wait(10)
    inputs.expect(is_command("right", "release", device), 2, "the release on unplug")
    focus.drain()
    inputs.none(is_command("right", "repeat"), 1.5, "repeat after the unplug")
    focus.none(is_move("right"), 0.5, "move after the unplug")
    focusd.stop()
    return "press, repeat, unplug -> release, then nothing for 1.5 s"


scenario(body)
