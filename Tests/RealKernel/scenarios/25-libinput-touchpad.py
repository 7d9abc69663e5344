# summary: with udevd, libinput (the touchpad backend focusd uses) takes the simulated touchpad as a gesture device and turns a 3-finger swipe into a swipe gesture of the right direction
# udev: required
# timeout: 90
import ctypes
import os
import select
import time

from realkernel import Device, check, scenario, udev_properties

lib = ctypes.CDLL("libinput.so.10")
OPEN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p)
CLOSE = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p)


class Interface(ctypes.Structure):
    _fields_ = [("open_restricted", OPEN), ("close_restricted", CLOSE)]


def open_restricted(path, flags, _):
    try:
        return os.open(path, flags)
    except OSError as e:
        return -e.errno


def close_restricted(fd, _):
    os.close(fd)


for name, res, args in [
    ("libinput_path_create_context", ctypes.c_void_p, [ctypes.POINTER(Interface), ctypes.c_void_p]),
    ("libinput_path_add_device", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]),
    ("libinput_device_has_capability", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
    ("libinput_get_fd", ctypes.c_int, [ctypes.c_void_p]),
    ("libinput_dispatch", ctypes.c_int, [ctypes.c_void_p]),
    ("libinput_get_event", ctypes.c_void_p, [ctypes.c_void_p]),
    ("libinput_event_get_type", ctypes.c_int, [ctypes.c_void_p]),
    ("libinput_event_destroy", None, [ctypes.c_void_p]),
    ("libinput_event_get_gesture_event", ctypes.c_void_p, [ctypes.c_void_p]),
    ("libinput_event_gesture_get_finger_count", ctypes.c_int, [ctypes.c_void_p]),
    ("libinput_event_gesture_get_dx", ctypes.c_double, [ctypes.c_void_p]),
    ("libinput_event_gesture_get_dy", ctypes.c_double, [ctypes.c_void_p]),
    ("libinput_unref", ctypes.c_void_p, [ctypes.c_void_p]),
]:
    getattr(lib, name).restype = res
    getattr(lib, name).argtypes = args

CAP_POINTER, CAP_GESTURE = 1, 5
SWIPE_BEGIN, SWIPE_UPDATE, SWIPE_END = 800, 801, 802


def body():
    pad = Device("touchpad")
    check(udev_properties(pad.node).get("ID_INPUT_TOUCHPAD") == "1", "udev does not tag it a touchpad")
    iface = Interface(OPEN(open_restricted), CLOSE(close_restricted))
    li = lib.libinput_path_create_context(ctypes.byref(iface), None)
    dev = lib.libinput_path_add_device(li, pad.node.encode())
    check(dev, f"libinput refused {pad.node}")
    check(lib.libinput_device_has_capability(dev, CAP_POINTER), "libinput: no pointer capability")
    check(lib.libinput_device_has_capability(dev, CAP_GESTURE), "libinput: no gesture capability")
    results = []
    for direction, sign in (("right", 1), ("left", -1)):
        drain(li, 0.3)
        pad.send(f"swipe {direction} 3")
        events = drain(li, 3.0)
        types = [t for t, _, _ in events]
        check(SWIPE_BEGIN in types and SWIPE_END in types,
              f"{direction}: no swipe gesture; libinput event types {sorted(set(types))}")
        fingers = {f for t, f, _ in events if t == SWIPE_BEGIN}
        check(fingers == {3}, f"{direction}: swipe with {fingers} fingers, expected 3")
        dx = sum(d for t, _, d in events if t == SWIPE_UPDATE)
        check(dx * sign > 0, f"{direction}: swipe dx {dx:.0f}")
        results.append(f"{direction} dx={dx:.0f}")
    lib.libinput_unref(li)
    pad.close()
    return "libinput gesture swipes: " + ", ".join(results)


def drain(li, seconds):
    """libinput events for `seconds`: (type, finger count, dx) for gestures, (type, 0, 0) else."""
    out = []
    fd = lib.libinput_get_fd(li)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        select.select([fd], [], [], max(0, deadline - time.monotonic()))
        lib.libinput_dispatch(li)
        while True:
            ev = lib.libinput_get_event(li)
            if not ev:
                break
            t = lib.libinput_event_get_type(ev)
            if 800 <= t < 900:
                g = lib.libinput_event_get_gesture_event(ev)
                out.append((t, lib.libinput_event_gesture_get_finger_count(g), lib.libinput_event_gesture_get_dx(g)))
            else:
                out.append((t, 0, 0.0))
            lib.libinput_event_destroy(ev)
    return out


scenario(body)
