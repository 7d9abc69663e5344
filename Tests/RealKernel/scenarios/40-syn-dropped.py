# summary: flooding a device while its reader is stopped overflows the evdev buffer; the reader sees SYN_DROPPED and libevdev resyncs
# udev: none
# timeout: 60
import os
import signal

from realkernel import Device, Reader, check, scenario


def body():
    dev = Device("mouse")
    reader = Reader(dev.node)
    os.kill(reader.proc.pid, signal.SIGSTOP)
    dev.send("key BTN_LEFT 1", "syn", "flood 2000", "key BTN_LEFT 0", "syn", "echo flooded")
    dev.out.expect("^flooded$", timeout=30)
    os.kill(reader.proc.pid, signal.SIGCONT)
    events = reader.events(lambda e: e.code == "SYN_DROPPED", timeout=20, syn=True)
    dropped = [i for i, e in enumerate(events) if e.code == "SYN_DROPPED"]
    # libevdev discards whatever was queued when it resyncs, so the marker goes only after the
    # reader printed SYN_DROPPED (it prints it once the resync is done).
    dev.send("rel REL_X 7", "syn")
    events += reader.events(lambda e: e.code == "REL_X" and e.value == 7, timeout=20, syn=True)
    # After the resync libevdev's view of BTN_LEFT is released: the flood ended with it up.
    after = events[dropped[0]:]
    downs = [e for e in after if e.code == "BTN_LEFT"]
    check(not downs or downs[-1].value == 0, f"BTN_LEFT left down after resync: {downs}")
    dev.close()
    reader.stop()
    return f"SYN_DROPPED read as event {dropped[0] + 1} after SIGCONT; events flow again after the resync"


scenario(body)
