# summary: SIGSTOP focusd while a direction is held, release it and flood the device, SIGCONT: the held command is released, nothing stays stuck, no phantom move
# udev: any
# needs: focusd
# timeout: 90
import os
import signal

from realkernel import Device, Focusd, Monitor, check, is_command, is_move, scenario


def body():
    focusd = Focusd()
    focus = Monitor(focusd)
    inputs = Monitor(focusd, interface="io.focusd.Input")
    dev = Device("keyboard")
    device = focusd.device_for(dev.node)["id"]
    dev.send("key KEY_RIGHT 1", "syn")
    inputs.expect(is_command("right", "press", device), 5, "the press")
    os.kill(focusd.proc.pid, signal.SIGSTOP)
    # KEY_F12 maps to no command: the flood toggles it and ends with it released.
    dev.send("key KEY_RIGHT 0", "syn", "flood 4000 EV_KEY KEY_F12", "echo flooded")
    dev.out.expect("^flooded$", 60)
    focus.drain()
    moves_before = sum(1 for r in focus.received if is_move()(r))
    os.kill(focusd.proc.pid, signal.SIGCONT)
    inputs.expect(is_command("right", "release", device), 5, "the release after SYN_DROPPED")
    inputs.none(lambda r: (r.get("command") or {}).get("phase") in ("press", "repeat"), 2,
                "press or repeat after the resync (stuck key or phantom input)")
    focus.none(is_move(), 0.5, "focus move after the resync")
    listed = focusd.device_for(dev.node)
    check(listed["id"] == device, f"the device id changed across SYN_DROPPED: {device} -> {listed['id']}")
    dev.close()
    focusd.stop()
    return f"release after SYN_DROPPED, no stuck key, no phantom move ({moves_before} move before)"


scenario(body)
