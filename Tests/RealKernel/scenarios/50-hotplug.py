# summary: 50 create/destroy cycles of one device: each node appears with its udev properties, the old one goes, nothing accumulates
# udev: required
# timeout: 240
import os

from realkernel import NAME_PREFIX, Device, check, read_text, scenario, sysfs_input, test_devices, udev_properties, wait_until


def body():
    dev = Device("remote")
    fds = len(os.listdir(f"/proc/{dev.proc.pid}/fd"))
    nodes = set()
    devices = {input_device(dev.node)}
    for cycle in range(50):
        new = dev.recreate()
        # The kernel reuses the eventN minor; the inputN device is new every time.
        device = input_device(new)
        check(device not in devices, f"cycle {cycle}: {new} is still {device}: the old device was not destroyed")
        devices.add(device)
        check(read_text(f"{sysfs_input(new)}/name").startswith(NAME_PREFIX), f"cycle {cycle}: {new} is not ours")
        check(test_devices() == [new], f"cycle {cycle}: simulated devices {test_devices()}, expected only {new}")
        nodes.add(new)
        if cycle % 10 == 9:
            props = udev_properties(new)
            check(props.get("ID_INPUT_KEY") == "1", f"cycle {cycle}: udev has no ID_INPUT_KEY for {new}")
    after = len(os.listdir(f"/proc/{dev.proc.pid}/fd"))
    check(after == fds, f"the simulator's open fds went from {fds} to {after}")
    dev.close()
    wait_until(lambda: test_devices() == [], 5, "the last device to go")
    return f"50 cycles: {len(devices)} input devices over {len(nodes)} node names"


def input_device(node):
    return os.path.basename(os.path.realpath(sysfs_input(node)))


scenario(body)
