# summary: with udevd, `udevadm info` gives each simulated device the ID_INPUT_* class a real one of its kind gets
# udev: required
# timeout: 120
from realkernel import Device, check, scenario, udev_properties

# model -> (properties that must be 1, properties that must be absent). The classes follow
# udev's input_id builtin: a keyboard has the whole first row of keys, a remote only some keys,
# a pad BTN_SOUTH (BTN_GAMEPAD), a mouse REL_X/REL_Y + BTN_LEFT, a touchpad ABS_X/Y +
# BTN_TOOL_FINGER without INPUT_PROP_DIRECT. A knob (REL_DIAL + BTN_0) is only ID_INPUT: BTN_0
# is a button, not a key, and it has no pointer axes.
CLASSES = {
    "keyboard": (["ID_INPUT_KEYBOARD", "ID_INPUT_KEY"], ["ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK", "ID_INPUT_TOUCHPAD"]),
    "remote": (["ID_INPUT_KEY"], ["ID_INPUT_KEYBOARD", "ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK"]),
    "xbox360": (["ID_INPUT_JOYSTICK"], ["ID_INPUT_KEYBOARD", "ID_INPUT_MOUSE", "ID_INPUT_TOUCHPAD"]),
    "powermate": ([], ["ID_INPUT_KEYBOARD", "ID_INPUT_KEY", "ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK", "ID_INPUT_TOUCHPAD"]),
    "surface-dial": ([], ["ID_INPUT_KEYBOARD", "ID_INPUT_KEY", "ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK", "ID_INPUT_TOUCHPAD"]),
    "surface-dial-hid": ([], ["ID_INPUT_KEYBOARD", "ID_INPUT_KEY", "ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK", "ID_INPUT_TOUCHPAD"]),
    "mouse": (["ID_INPUT_MOUSE"], ["ID_INPUT_KEYBOARD", "ID_INPUT_JOYSTICK", "ID_INPUT_TOUCHPAD"]),
    "touchpad": (["ID_INPUT_TOUCHPAD"], ["ID_INPUT_KEYBOARD", "ID_INPUT_MOUSE", "ID_INPUT_JOYSTICK", "ID_INPUT_TOUCHSCREEN"]),
}


def body():
    seen = []
    for model, (present, absent) in CLASSES.items():
        dev = Device(model)
        props = udev_properties(dev.node)
        check(props.get("ID_INPUT") == "1", f"{model}: no ID_INPUT=1 in {props}")
        for p in present:
            check(props.get(p) == "1", f"{model}: {p} missing; ID_INPUT_*: {classes(props)}")
        for p in absent:
            check(p not in props, f"{model}: unexpected {p}; ID_INPUT_*: {classes(props)}")
        dev.close()
        seen.append(f"{model}={','.join(classes(props)) or '-'}")
    return " ".join(seen)


def classes(props):
    return sorted(k[len("ID_INPUT_"):].lower() for k, v in props.items()
                  if k.startswith("ID_INPUT_") and v == "1")


scenario(body)
