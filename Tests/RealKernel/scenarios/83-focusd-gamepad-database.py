# summary: pads matched through SDL_GameControllerDB alone (no profile): a generic USB fightstick (BTN_TRIGGER... and a hat) gives select on its SDL `a` button and four directions on its hat; a Joy-Con (L) whose stick is bound to hat halves gives directions; the reasons name the database line
# udev: any
# needs: focusd
# timeout: 180
import os

from descriptions import REPO, UinputDevice, listed
from realkernel import Focusd, Monitor, check, is_command, scenario, wait_until

DATABASE = os.path.join(REPO, "Tests/InputMappingTests/Gamepads/gamecontrollerdb.txt")
BUTTONS = ["BTN_TRIGGER", "BTN_THUMB", "BTN_THUMB2", "BTN_TOP", "BTN_TOP2", "BTN_PINKIE", "BTN_BASE", "BTN_BASE2",
           "BTN_BASE3", "BTN_BASE4", "BTN_BASE5", "BTN_BASE6", "BTN_DEAD"]
HAT = {"ABS_HAT0X": {"min": -1, "max": 1}, "ABS_HAT0Y": {"min": -1, "max": 1}}
# gamecontrollerdb.txt line 1295: 03000000790000003018000011010000,Arcade Fightstick F300,a:b1,...,dpup:h0.1,...
FIGHTSTICK = {"name": "Arcade Fightstick F300", "bus": 3, "vendor": 0x0079, "product": 0x1830, "version": 0x0111,
              "events": {"EV_KEY": BUTTONS, "EV_ABS": {"ABS_X": {"min": 0, "max": 255}, "ABS_Y": {"min": 0, "max": 255}, **HAT}},
              "source": "scenario 83"}
# line 1459: 030000007e0500000620000001000000,Joy-Con (L),+leftx:h0.2,+lefty:h0.4,-leftx:h0.8,-lefty:h0.1,...
JOYCON = {"name": "Joy-Con (L)", "bus": 3, "vendor": 0x057e, "product": 0x2006, "version": 0x0001,
          "events": {"EV_KEY": BUTTONS + ["BTN_TRIGGER_HAPPY1"], "EV_ABS": HAT}, "source": "scenario 83"}


def body():
    config = "/tmp/focusd-gamepads.toml"
    with open(config, "w") as f:
        f.write(f'[gamepads]\ndatabases = ["{DATABASE}"]\n')
    focusd = Focusd("--config", config)
    monitor = Monitor(focusd, interface="io.focusd.Input")
    stick = UinputDevice(FIGHTSTICK)
    entry = listed(focusd, stick.node)
    # The grab follows the decision: focusd asks the kernel which keys are down first (input.md §6),
    # so the entry listed with its reasons may not be grabbed yet.
    check(entry["class"] == "gamepad", f"fightstick: {entry}")
    wait_until(lambda: focusd.device_for(stick.node)["grabbed"], 5, "focusd to grab the fightstick")
    check(any("gamecontrollerdb.txt:1295" in r for r in entry["reasons"]), f"fightstick reasons: {entry['reasons']}")
    # b1 = BTN_THUMB (SDL numbers buttons from BTN_JOYSTICK) is the line's `a`: select.
    stick.emit(("EV_KEY", "BTN_THUMB", 1))
    monitor.expect(is_command("select", "press", entry["id"]), 10, "select from the fightstick's b1")
    stick.emit(("EV_KEY", "BTN_THUMB", 0))
    seen = ["select"]
    for code, value, direction in [("ABS_HAT0Y", -1, "up"), ("ABS_HAT0Y", 1, "down"), ("ABS_HAT0X", -1, "left"),
                                   ("ABS_HAT0X", 1, "right")]:
        stick.emit(("EV_ABS", code, value))
        monitor.expect(is_command(direction, "press", entry["id"]), 10, f"{direction} from the fightstick's hat")
        stick.emit(("EV_ABS", code, 0))
        monitor.expect(is_command(direction, "release", entry["id"]), 10, f"{direction} release")
        seen.append(direction)
    joycon = UinputDevice(JOYCON)
    pad = listed(focusd, joycon.node)
    check(any("gamecontrollerdb.txt:1459" in r for r in pad["reasons"]), f"Joy-Con reasons: {pad['reasons']}")
    for code, value, direction in [("ABS_HAT0X", 1, "right"), ("ABS_HAT0Y", 1, "down")]:
        joycon.emit(("EV_ABS", code, value))
        monitor.expect(is_command(direction, "press", pad["id"]), 10, f"{direction} from the Joy-Con's stick on hat halves")
        joycon.emit(("EV_ABS", code, 0))
        monitor.expect(is_command(direction, "release", pad["id"]), 10, f"{direction} release")
        seen.append("joycon:" + direction)
    stick.close()
    joycon.close()
    focusd.stop()
    return " ".join(seen)


scenario(body)
