# summary: focusd grabs a remote exclusively (a second reader sees nothing), but only once no key is down
# udev: any
# needs: focusd
# timeout: 90
from realkernel import Device, Focusd, Reader, check, scenario, wait_until


def body():
    # A key is down before focusd sees the device: it must not grab yet.
    dev = Device("remote")
    dev.send("msc MSC_SCAN 1051", "key KEY_OK 1", "syn")
    dev.sync()
    focusd = Focusd()
    listed = focusd.device_for(dev.node)
    check(not listed["grabbed"], f"grabbed while KEY_OK is down: {listed}")
    reader = Reader(dev.node)
    dev.send("key KEY_OK 0", "syn")
    reader.events(lambda e: e.code == "KEY_OK" and e.value == 0, timeout=10)  # the release reaches others
    wait_until(lambda: focusd.device_for(dev.node)["grabbed"], 5, "focusd to grab once the key is up")
    # Grabbed: the second reader gets nothing more, focusd still acts on the keys.
    dev.send("ir KEY_RIGHT", "echo pressed")
    dev.out.expect("^pressed$", 10)
    late = []
    try:
        late = reader.events(lambda e: True, timeout=1)
    except Exception:
        pass
    check(not late, f"a second reader saw {late} while focusd holds the grab")
    reader.stop()
    dev.close()
    focusd.stop()
    return "not grabbed with a key down; grabbed after the key-up; second reader saw nothing"


scenario(body)
