# summary: a key released while focusd is stopped past its repeat deadline (no overflow) gives its release and no repeat or extra move, 8 times in a row
# udev: any
# needs: focusd
# timeout: 90
import os
import signal
import time

from realkernel import Device, Focusd, Monitor, check, is_command, is_move, scenario

ROUNDS = 8


def body():
    focusd = Focusd()
    focus = Monitor(focusd)
    inputs = Monitor(focusd, interface="io.focusd.Input")
    dev = Device("keyboard")
    device = focusd.device_for(dev.node)["id"]
    for i in range(ROUNDS):
        key, command = ("KEY_RIGHT", "right") if i % 2 == 0 else ("KEY_LEFT", "left")
        dev.send(f"key {key} 1", "syn")
        inputs.expect(is_command(command, "press", device), 5, f"press {i}")
        focus.expect(is_move(command), 5, f"the move of press {i}")
        # Stopped 600 ms: the key goes up 0 ms in, focusd's first repeat was due at 400 ms.
        os.kill(focusd.proc.pid, signal.SIGSTOP)
        dev.send(f"key {key} 0", "syn")
        dev.sync()
        time.sleep(0.6)
        os.kill(focusd.proc.pid, signal.SIGCONT)
        _, r = inputs.expect(lambda r: is_command(command, None, device)(r)
                             and r["command"]["phase"] in ("repeat", "release"), 5, f"the release of press {i}")
        check(r["command"]["phase"] == "release", f"round {i}: a repeat came before the release (the key was up)")
        focus.none(is_move(), 0.3, f"move after the release in round {i}")
    dev.close()
    focusd.stop()
    return f"{ROUNDS} stops of 600 ms with the key-up inside: release, no repeat, no extra move"


scenario(body)
