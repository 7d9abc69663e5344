# summary: a knob turned while an `edit` node has focus sends edit events in detents (PowerMate 4 counts, Surface Dial 100), not moves
# udev: any
# needs: focusd
# timeout: 90
from realkernel import Device, Focusd, Monitor, check, scenario

SCENE = {
    "name": "crown-edit",
    "root": {"id": "root", "children": [
        {"id": "a", "frame": {"x": 0, "y": 0, "width": 100, "height": 50}, "focusable": True},
        {"id": "slider", "frame": {"x": 0, "y": 60, "width": 300, "height": 50}, "focusable": True,
         "interactions": ["edit"]},
        {"id": "b", "frame": {"x": 0, "y": 120, "width": 100, "height": 50}, "focusable": True},
    ]},
}


def body():
    focusd = Focusd(demo=False)
    owner = focusd.connection()  # keeps the scene alive: it belongs to this connection
    owner.SetScene(scene=SCENE)
    owner.ActivateScene(scene="crown-edit")
    owner.Focus(id="slider", scene="crown-edit")
    monitor = Monitor(focusd, scene="crown-edit")
    results = []
    for model, counts in (("powermate", 4), ("surface-dial", 100), ("surface-dial-hid", 100)):
        dev = Device(model)
        device = focusd.device_for(dev.node)["id"]
        # One detent clockwise, then two counter-clockwise (the direction change drops the remainder).
        dev.send(f"rel REL_DIAL {counts}", "syn", "sleep 300", f"rel REL_DIAL {-2 * counts}", "syn")
        detents = []
        while sum(detents) != -1:
            _, r = monitor.expect(lambda r: (r.get("event") or {}).get("kind") in ("edit", "focus"), 5,
                                  f"edit events from {model}")
            e = r["event"]
            check(e["kind"] == "edit", f"{model}: focus moved off the edit node: {e}")
            check(e.get("to") == "slider", f"{model}: edit event for {e.get('to')}")
            detents.append(e.get("detents") or 0)
            check(len(detents) < 10, f"{model}: edit detents {detents} never add up to +1 -2")
        dev.close()
        results.append(f"{model}:{detents}")
    check(owner.GetState(scene="crown-edit")["state"]["focused"] == "slider", "focus left the slider")
    focusd.stop()
    return " ".join(results)


scenario(body)
