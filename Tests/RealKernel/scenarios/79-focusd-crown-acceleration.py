# summary: in the demo scene a PowerMate turned slowly moves focus one tile per detent, turned fast moves it further (acceleration), and on `volume` (edit) its turns are edit events
# udev: any
# needs: focusd
# timeout: 90
import time

from realkernel import Device, Focusd, Monitor, check, is_command, scenario

FAST = 10
# continueRail's lazy collection in sequential order: built items tile00…tile07, then virtual ones.
TILES = [f"tile{i:02d}" for i in range(8)] + [f"continueItems#{i}" for i in range(8, 300)]


def turns(dev, detents, gap_ms):
    """`detents` clockwise PowerMate detents (4 counts each), `gap_ms` apart."""
    lines = []
    for i in range(detents):
        lines += ["rel REL_DIAL 4", "syn"] + ([f"sleep {gap_ms}"] if i < detents - 1 else [])
    dev.send(*lines)


def focused(focusd):
    return focusd.call("GetState", scene="demo")["state"]["focused"]


def body():
    focusd = Focusd()
    focus = Monitor(focusd, scene="demo")
    inputs = Monitor(focusd, interface="io.focusd.Input")
    dev = Device("powermate")
    device = focusd.device_for(dev.node)["id"]

    # Slowly (one detent every 400 ms, below the default 8 detents/s): one tile per detent.
    focusd.call("Focus", id="tile00", scene="demo")
    turns(dev, 3, 400)
    for n in range(3):
        _, r = inputs.expect(is_command("crown", "rotate", device), 5, f"slow detent {n + 1}")
        check(r["command"]["detents"] == 1, f"slow detent {n + 1} counted as {r['command']['detents']}")
        _, e = focus.expect(lambda r: (r.get("event") or {}).get("kind") == "focus"
                            and r["event"]["cause"]["kind"] != "programmatic", 5, f"move {n + 1}")
        check(e["event"]["cause"] == {"kind": "crown", "direction": "next", "device": device},
              f"slow move {n + 1} has cause {e['event']['cause']}")
        check(e["event"]["to"] == TILES[n + 1], f"slow detent {n + 1} moved to {e['event']['to']}, not {TILES[n + 1]}")
    dev.sync()

    # Fast (a detent every 30 ms, ~33 detents/s, for 300 ms): more than one tile per detent once
    # the speed is known (the mapper measures it over 250 ms).
    time.sleep(0.5)
    focusd.call("Focus", id="tile00", scene="demo")
    inputs.drain()
    before = len(inputs.received)
    turns(dev, FAST, 30)
    dev.sync()
    time.sleep(1)
    inputs.drain()
    commanded = [r["command"]["detents"] for r in inputs.received[before:]
                 if is_command("crown", "rotate", device)(r)]
    check(len(commanded) == FAST, f"{FAST} fast detents gave {len(commanded)} rotate commands: {commanded}")
    check(sum(commanded) > FAST, f"{FAST} fast detents were not accelerated: {commanded}")
    now = focused(focusd)
    check(TILES.index(now) > FAST, f"{FAST} fast detents moved focus only to {now} (commands {commanded})")

    # On the edit node `volume` the same turns are edit events, and focus stays.
    focusd.call("Focus", id="volume", scene="demo")
    # The call's own focus event may reach the monitor after the reply: wait for it, so that it
    # is not taken for a turn's event below.
    focus.expect(lambda r: (r.get("event") or {}).get("kind") == "focus"
                 and r["event"].get("to") == "volume", 5, "the programmatic focus on volume")
    focus.drain()
    turns(dev, 2, 300)
    total = 0
    while total < 2:
        _, r = focus.expect(lambda r: (r.get("event") or {}).get("kind") in ("edit", "focus"), 5, "edit events on volume")
        check(r["event"]["kind"] == "edit" and r["event"].get("to") == "volume", f"not an edit of volume: {r['event']}")
        total += r["event"].get("detents") or 0
    check(focused(focusd) == "volume", f"focus left volume: {focused(focusd)}")
    dev.close()
    focusd.stop()
    return f"slow: 3 detents -> {TILES[3]}; fast: {FAST} detents as {commanded} -> {now}; volume: edit detents {total}"


scenario(body)
