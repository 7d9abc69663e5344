# summary: a keyboard, a gamepad and a knob session recorded with `focusctl record`, replayed through uinput with `focusctl replay` (speed 1 and 2) on a fresh focusd and played offline with `focusd simulate --input`, gives the live session's focus sequence; a hot-plugged device is recorded where it appears
# udev: any
# needs: focusd
# timeout: 240
import os
import signal
import subprocess
import time

from realkernel import BIN, Device, Focusd, Monitor, check, is_move, scenario, wait_until

FOCUSCTL = os.path.join(BIN, "focusctl")
RECORDING = "/tmp/session.rec"
SCENE = os.path.join(os.environ.get("RK_REPO", ""), "Sources/FocusService/Resources/demo-scene.json")

# (device, script lines): one gesture each, 400 ms apart (far from any repeat or edit timer).
# On the TV home demo (from heroFeatured): down into continueRail's lazy collection, right along
# it, the hat down into moviesRail and right along it, the crown next and previous (no `edit` on a
# tile), up back into continueRail (its remembered item), select activates: seven focus moves.
GESTURES = [
    ("keyboard", ["press KEY_DOWN 40"]),
    ("keyboard", ["press KEY_RIGHT 40"]),
    ("xbox360", ["abs ABS_HAT0Y 1", "syn", "sleep 40", "abs ABS_HAT0Y 0", "syn"]),
    ("xbox360", ["abs ABS_HAT0X 1", "syn", "sleep 40", "abs ABS_HAT0X 0", "syn"]),
    ("powermate", ["rel REL_DIAL 4", "syn"]),
    ("powermate", ["rel REL_DIAL -4", "syn"]),
    ("keyboard", ["press KEY_UP 40"]),
    ("xbox360", ["press BTN_SOUTH 40"]),
]


def focus_sequence(monitor, count, what):
    out = []
    for _ in range(count):
        _, r = monitor.expect(is_move(), 30, f"{what}: focus move {len(out) + 1} of {count}")
        out.append(r["event"]["to"])
    return out


def body():
    check(os.access(FOCUSCTL, os.X_OK), f"no focusctl at {FOCUSCTL}")
    env = dict(os.environ)
    focusd = Focusd()
    env["FOCUSD_SOCKET"] = focusd.socket
    devices = {model: Device(model) for model in ("keyboard", "xbox360", "powermate")}
    listed = {model: focusd.device_for(dev.node) for model, dev in devices.items()}
    ids = {model: d["id"] for model, d in listed.items()}
    # A touch surface is never recordable: focusd reads it through libinput (gestures, not
    # events), or not at all without udev.
    pad = Device("touchpad")
    wait_until(lambda: any(d["node"] == pad.node for d in focusd.devices()), 20, "focusd to list the touchpad")
    pad_id = next(d["id"] for d in focusd.devices() if d["node"] == pad.node)
    out = subprocess.run([FOCUSCTL, "record", "/tmp/pad.rec", "--device", pad_id, "--duration", "1"], env=env,
                         capture_output=True, text=True, timeout=30)
    check(out.returncode == 2 and "io.focusd.Inspect.DeviceNotRecordable" in out.stderr,
          f"recording the touchpad: exit {out.returncode}: {out.stderr.strip()}")
    pad.close()
    argv = [FOCUSCTL, "record", RECORDING] + [a for m in ids.values() for a in ("--device", m)]
    recorder = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: os.path.exists(RECORDING) and "\nevents\n" in open(RECORDING).read(), 30, "focusctl record to start")
    monitor = Monitor(focusd, scene="demo")
    for model, lines in GESTURES:  # one after the other, whichever device makes it
        devices[model].send(*lines)
        devices[model].sync(60)
        time.sleep(0.4)
    live = focus_sequence(monitor, 7, "live")
    time.sleep(0.5)
    recorder.send_signal(signal.SIGINT)
    recorder.wait(10)
    text = open(RECORDING).read()
    for model, d in listed.items():
        check(f'device {d["id"]}\n  name "{d["name"]}"' in text, f"{model}'s description missing from the recording:\n{text[:2000]}")
    check("absolute ABS_HAT0X min -1 max 1" in text and "relative REL_DIAL" in text, "axes missing from the recording")
    check(" EV_KEY KEY_DOWN 1" in text and " EV_REL REL_DIAL 4" in text and " EV_ABS ABS_HAT0Y 1" in text,
          "events missing from the recording")
    for dev in devices.values():
        dev.close()
    focusd.stop()

    # The same session replayed through uinput, on a fresh focusd (fresh section memory), at the
    # recorded pace and twice as fast.
    pace = []
    for speed in ("1", "2"):
        focusd = Focusd()
        env["FOCUSD_SOCKET"] = focusd.socket
        monitor = Monitor(focusd, scene="demo")
        started = time.monotonic()
        out = subprocess.run([FOCUSCTL, "replay", RECORDING, "--speed", speed], env=env, capture_output=True,
                             text=True, timeout=120)
        check(out.returncode == 0, f"focusctl replay --speed {speed} exited {out.returncode}: {out.stderr.strip()}")
        pace.append(time.monotonic() - started)
        replayed = focus_sequence(monitor, 7, f"replay at speed {speed}")
        check(replayed == live, f"replay at speed {speed} moved focus {replayed}, live {live}")
        focusd.stop()
    check(pace[1] < pace[0], f"--speed 2 took {pace[1]:.2f} s, the recorded pace {pace[0]:.2f} s")

    # Offline: the device mapper and the engine on the recording's clock.
    out = subprocess.run([os.environ["RK_FOCUSD"], "simulate", SCENE, "--input", RECORDING],
                         capture_output=True, text=True, timeout=60)
    check(out.returncode == 0, f"focusd simulate exited {out.returncode}: {out.stderr.strip()}")
    simulated = [line.split(" -> ")[1].split()[0] for line in out.stdout.splitlines()[1:] if "[focus" in line]
    check(simulated == live, f"simulate gives {simulated}, live {live}\n{out.stdout}")
    # Without --device, a device plugged in while recording is described where it appears, then
    # its events follow; its unplug is noted.
    focusd = Focusd()
    env["FOCUSD_SOCKET"] = focusd.socket
    hot = "/tmp/hotplug.rec"
    recorder = subprocess.Popen([FOCUSCTL, "record", hot, "--duration", "8"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: os.path.exists(hot) and "\nevents\n" in open(hot).read(), 30, "focusctl record to start")
    knob = Device("knob")
    knob_id = focusd.device_for(knob.node)["id"]
    knob.send("rel REL_DIAL 1", "syn")
    knob.sync(30)
    time.sleep(0.3)
    knob.close()
    recorder.wait(30)
    check(recorder.returncode == 0, f"focusctl record exited {recorder.returncode}: {recorder.stderr.read().strip()}")
    text = open(hot).read()
    after = text.split("\nevents\n", 1)[1]
    check(f"device {knob_id}\n" in after and f" {knob_id} EV_REL REL_DIAL 1\n" in after and f"removed {knob_id}" in after,
          f"the hot-plugged knob is not recorded as it came and went:\n{after[-1500:]}")
    check(after.index(f"device {knob_id}") < after.index(f" {knob_id} EV_REL"), "the knob's events come before its description")
    focusd.stop()
    return f"live = replay (speed 1: {pace[0]:.1f} s, speed 2: {pace[1]:.1f} s) = simulate: {' '.join(live)}"


scenario(body)
