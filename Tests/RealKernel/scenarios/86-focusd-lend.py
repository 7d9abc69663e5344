# summary: Lend lets another reader EVIOCGRAB the remote right after the reply and focus stays; Reclaim and the lender's closing grab it again; DeviceLent for another client; a key down when the remote is opened fires its command; a remote re-plugged with the same phys keeps its id
# udev: none
# needs: focusd
# timeout: 240
import os

import varlink

from realkernel import Device, Focusd, Monitor, Reader, check, is_move, scenario, wait_until


def grabbed(focusd, node, want=True):
    return focusd.device_for(node)["grabbed"] == want


def body():
    dev = Device("remote")
    focusd = Focusd()
    wait_until(lambda: grabbed(focusd, dev.node), 20, "focusd to grab the remote")
    device_id = focusd.device_for(dev.node)["id"]
    moves = Monitor(focusd)

    # Lend: the reply comes once the device is ungrabbed, so this grab succeeds at once.
    lender = focusd.connection("io.focusd.Input")
    reply = lender.Lend(device=device_id)["device"]
    check(reply.get("lent") is True and not reply["grabbed"], f"Lend replied {reply}")
    game = Reader(dev.node, grab=True)  # fails (no "ready") if EVIOCGRAB fails
    listed = focusd.device_for(dev.node)
    check(listed.get("lent") is True and not listed["grabbed"], f"ListDevices while lent: {listed}")
    # Another client cannot lend it meanwhile.
    try:
        focusd.call("Lend", interface="io.focusd.Input", device=device_id)
        check(False, "a second client lent a lent device")
    except varlink.VarlinkError as error:
        check(error.error() == "io.focusd.Input.DeviceLent", f"second Lend: {error}")
    dev.send("key KEY_RIGHT 1", "syn", "key KEY_RIGHT 0", "syn", "key KEY_LEFT 1", "syn", "key KEY_LEFT 0", "syn")
    got = [(e.code, e.value) for e in game.events(lambda e: e.code == "KEY_LEFT" and e.value == 0, timeout=10)]
    check(("KEY_RIGHT", 1) in got, f"the lender's reader got {got}")
    moves.none(is_move(), 1.5, "focus move from a lent remote")
    game.stop()

    # Reclaim: grabbed again, and its arrows move focus again.
    back = lender.Reclaim(device=device_id)["device"]
    check(not back.get("lent"), f"Reclaim replied {back}")
    wait_until(lambda: grabbed(focusd, dev.node), 10, "focusd to grab the reclaimed remote")
    dev.send("key KEY_RIGHT 1", "syn", "key KEY_RIGHT 0", "syn", "sleep 150", "key KEY_LEFT 1", "syn", "key KEY_LEFT 0", "syn")
    moves.expect(is_move(), 10, "a focus move after Reclaim")

    # Closing the lender's connection takes the device back.
    lender.Lend(device=device_id)
    wait_until(lambda: grabbed(focusd, dev.node, False), 10, "the device to be lent")
    lender.close()
    wait_until(lambda: grabbed(focusd, dev.node), 10, "focusd to grab the device again when the lender closed")
    check(not focusd.device_for(dev.node).get("lent"), "still lent after the lender closed")

    # A remote re-plugged with the same phys (no uniq) keeps its id.
    node = dev.recreate()
    again = focusd.device_for(node)
    check(again["id"] == device_id, f"re-plugged remote got id {again['id']}, had {device_id}")
    dev.close()
    focusd.stop()

    # The key that woke the remote: KEY_RIGHT goes down before focusd can open the node. focusd
    # runs as nobody, devtmpfs makes the node root 0600 (no udevd), so its first open fails; the
    # key is pressed; the chmod (IN_ATTRIB) lets focusd open it with the key down, as a sleeping
    # Bluetooth remote's node appears with the press that woke it.
    focusd = Focusd(as_user="nobody")
    moves = Monitor(focusd)
    woke = Device("remote")
    wait_until(lambda: any(d["node"] == woke.node and d.get("problem") for d in focusd.devices()), 20,
               "focusd to list the unreadable remote")
    woke.send("key KEY_RIGHT 1", "syn")
    woke.sync()
    os.chmod(woke.node, 0o644)
    _, reply = moves.expect(is_move("right"), 10, "a right move from the KEY_RIGHT held when focusd opened the remote")
    listed = focusd.device_for(woke.node)
    check(reply["event"]["cause"]["device"] == listed["id"], f"the move's cause: {reply['event']['cause']}")
    check(not listed["grabbed"], "grabbed while the wake key is down")
    woke.send("key KEY_RIGHT 0", "syn")
    wait_until(lambda: grabbed(focusd, woke.node), 10, "the grab once the wake key is up")
    moves.drain()  # the kernel's own repeats of the held key moved focus too, as a held key does
    moves.none(is_move(), 1.0, "a move after the wake key's release")
    woke.close()
    focusd.stop()
    return ("lent: another reader grabbed it, no focus move, DeviceLent for another client; reclaimed and "
            "closed-lender grabbed again; re-plug kept its id; the held wake key moved focus, grab after its release")


scenario(body)
