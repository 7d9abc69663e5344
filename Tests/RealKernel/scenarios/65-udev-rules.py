# summary: 70-focusd.rules gives group focusd the nodes focusd uses, hints knobs, and skips FOCUSD_IGNORE=1 devices
# udev: required
# timeout: 150
import os
import stat
import subprocess

from realkernel import IGNORE_NAME, Device, FocusdRules, check, read_text, scenario, sibling_nodes, udev_properties

OPEN = "import os,sys; os.close(os.open(sys.argv[1], os.O_RDONLY))"


def opens(node, groups):
    """Whether user focusd with only `groups` can open `node` (and the error when not)."""
    out = subprocess.run(["setpriv", "--reuid=focusd", "--regid=focusd", f"--groups={groups}",
                          "/usr/bin/python3", "-c", OPEN, node], capture_output=True, text=True)
    return out.returncode == 0, out.stderr.strip().splitlines()[-1:] or [""]


def body():
    rules = FocusdRules()
    devices = []
    try:
        return check_rules(rules, devices)
    finally:
        for dev in devices:
            dev.close()
        rules.remove()


def check_rules(rules, devices):
    def make(model, name=None):
        dev = Device(model, name=name)
        devices.append(dev)
        return dev

    def granted(what, node, hints=None):
        props = udev_properties(node)
        st = os.stat(node)
        check((stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) == (0o660, 0, rules.focusd_gid),
              f"{what} {node}: mode {stat.S_IMODE(st.st_mode):o} uid {st.st_uid} gid {st.st_gid}, "
              f"expected 660 root focusd({rules.focusd_gid})")
        check("FOCUSD_IGNORE" not in props, f"{what}: FOCUSD_IGNORE={props.get('FOCUSD_IGNORE')}")
        if hints is None:
            check("ID_INPUT_FOCUSD_ROTARY" not in props and "FOCUSD_COUNTS_PER_DETENT" not in props,
                  f"{what}: unexpected knob hints {props.get('ID_INPUT_FOCUSD_ROTARY')}/{props.get('FOCUSD_COUNTS_PER_DETENT')}")
        else:
            check(props.get("ID_INPUT_FOCUSD_ROTARY") == "1" and props.get("FOCUSD_COUNTS_PER_DETENT") == str(hints),
                  f"{what}: hints {props.get('ID_INPUT_FOCUSD_ROTARY')}/{props.get('FOCUSD_COUNTS_PER_DETENT')}, expected 1/{hints}")

    def left_alone(what, node, ignored=True):
        props = udev_properties(node)
        st = os.stat(node)
        check((stat.S_IMODE(st.st_mode), st.st_gid) == (0o660, rules.input_gid),
              f"{what} {node}: mode {stat.S_IMODE(st.st_mode):o} gid {st.st_gid}, expected 660 input({rules.input_gid})")
        check((props.get("FOCUSD_IGNORE") == "1") == ignored,
              f"{what}: FOCUSD_IGNORE={props.get('FOCUSD_IGNORE')}, expected {'1' if ignored else 'absent'}")

    keyboard = make("keyboard")
    granted("keyboard", keyboard.node)
    granted("remote", make("remote").node)
    granted("xbox360", make("xbox360").node)
    granted("touchpad", make("touchpad").node)
    powermate = make("powermate")
    granted("powermate", powermate.node, hints=4)
    dial = make("surface-dial")
    granted("surface-dial", dial.node, hints=100)
    hid = make("surface-dial-hid")
    hid_nodes = sibling_nodes(hid.node)
    with_rel = 0
    for node in hid_nodes:
        if read_text(f"/sys/class/input/{os.path.basename(node)}/device/capabilities/rel") != "0":
            granted(f"surface-dial-hid", node, hints=100)
            with_rel += 1
        else:
            props = udev_properties(node)
            check("ID_INPUT_FOCUSD_ROTARY" not in props, f"surface-dial-hid {node} without REL got knob hints")
    check(with_rel >= 1, f"surface-dial-hid: no node with relative axes among {hid_nodes}")
    granted("unknown knob (REL_DIAL test)", make("knob").node)
    granted("wheel-only device", make("wheel").node)
    left_alone("lid switch", make("lid").node, ignored=False)
    by_name = make("keyboard", name=IGNORE_NAME)
    left_alone("keyboard tagged by name", by_name.node)
    mouse = make("mouse")
    left_alone("mouse tagged by vendor:product", mouse.node)

    # The rules run again on `change`, as a re-probe does.
    out = subprocess.run(["udevadm", "trigger", "--action=change", "--settle", keyboard.node],
                                 capture_output=True, text=True)
    check(out.returncode == 0, f"udevadm trigger --action=change: {out.stderr.strip()}")
    granted("keyboard after a change event", keyboard.node)

    # Permissions in effect: user focusd with group focusd alone opens the granted nodes only.
    for what, node in (("keyboard", keyboard.node), ("powermate", powermate.node), ("surface-dial", dial.node)):
        ok, err = opens(node, "focusd")
        check(ok, f"user focusd (group focusd) cannot open the {what} {node}: {err}")
    for what, node in (("ignored keyboard", by_name.node), ("mouse", mouse.node)):
        ok, err = opens(node, "focusd")
        check(not ok and "PermissionError: [Errno 13]" in err[0], f"user focusd opened the {what} {node} without group input: {err}")
        ok, err = opens(node, "focusd,input")
        check(ok, f"user focusd with group input cannot open the {what} {node}: {err}")
    return (f"granted keyboard remote xbox360 touchpad powermate(4) surface-dial(100) "
            f"surface-dial-hid(100, {with_rel} of {len(hid_nodes)} nodes) knob wheel; "
            f"lid keeps root:input; ignored by-name by-id; effective for user focusd")


scenario(body)
