# summary: every simulated device appears as /dev/input/eventN with its name and ids, and goes away when destroyed
# udev: none
# timeout: 90
import os
import stat

from realkernel import Device, NAME_PREFIX, check, read_text, scenario, sysfs_input, test_devices

# model -> (name after the prefix, bus, vendor, product), as the kernel reports them in sysfs.
EXPECTED = {
    "keyboard": ("USB keyboard", 0x03, 0x046d, 0xc31c),
    "remote": ("IR remote", 0x06, 0x0000, 0x0000),
    "xbox360": ("Xbox 360 pad", 0x03, 0x045e, 0x028e),
    "powermate": ("Griffin PowerMate", 0x03, 0x077d, 0x0410),
    "surface-dial": ("Surface Dial System Multi Axis", 0x05, 0x045e, 0x091b),
    # Through uhid: hid-input names the input device after the HID device and its application.
    "surface-dial-hid": ("Surface Dial (uhid) System Multi Axis", 0x05, 0x045e, 0x091b),
    "mouse": ("hi-res wheel mouse", 0x03, 0x046d, 0xc08b),
    "touchpad": ("touchpad", 0x18, 0x06cb, 0xcd7e),
}


def body():
    check(os.path.exists("/dev/uinput"), "no /dev/uinput in the guest")
    check(test_devices() == [], f"simulated devices left over: {test_devices()}")
    for model, (name, bus, vendor, product) in EXPECTED.items():
        dev = Device(model)
        st = os.stat(dev.node)
        check(stat.S_ISCHR(st.st_mode), f"{model}: {dev.node} is not a character device")
        sysfs = sysfs_input(dev.node)
        got = read_text(f"{sysfs}/name")
        check(got == NAME_PREFIX + name, f"{model}: name {got!r}, expected {NAME_PREFIX + name!r}")
        ids = tuple(int(read_text(f"{sysfs}/id/{k}"), 16) for k in ("bustype", "vendor", "product"))
        check(ids == (bus, vendor, product), f"{model}: ids {ids}, expected {(bus, vendor, product)}")
        check(test_devices() == [dev.node], f"{model}: simulated devices {test_devices()}, expected only {dev.node}")
        dev.close()
        check(not os.path.exists(dev.node) and test_devices() == [],
              f"{model}: {dev.node} still present after destroy")
    return f"{len(EXPECTED)} models created and destroyed"


scenario(body)
