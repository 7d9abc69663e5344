#!/usr/bin/env python3
"""SetScene of page-like scenes (what the chromium adapter sends: rows of scroll containers whose
items carry `interactions`, `role`, `values`), timed on two focusd binaries, alternately, each on
its own daemon: the client writes bytes serialized beforehand and times until the reply's NUL.

    Benchmarks/SceneCalls/page-scenes.py FOCUSD BASELINE_FOCUSD [ROUNDS]

Three sizes: 821 nodes (about 110 KiB: parsed into a JSON tree on the event loop and read from it by
SceneDecoding when it takes it), 2,041 and 20,101 nodes (over the 256 KiB at which a message is
parsed on the worker: read straight from their bytes by SceneBytes when it takes them). Prints each
binary's median and minimum per size and the ratio (this / baseline); asserts nothing. Measures
wall time on a shared machine: compare the two in the same run only.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, time

def page_scene(name, rows, items):
    children = []
    for r in range(rows):
        row_items = []
        for i in range(items):
            row_items.append({"id": f"r{r}i{i}", "focusable": True, "role": "link" if i % 7 else "text",
                              "interactions": ["activate"] if i % 7 else ["activate", "edit"],
                              **({"values": {"href": f"/item/{r}/{i}"}} if i % 5 == 0 else {}),
                              "frame": {"x": i * 210.5, "y": 0.0, "width": 200, "height": 120}})
        children.append({"id": f"row{r}", "section": True,
                         "frame": {"x": 0, "y": r * 140, "width": 1920, "height": 130},
                         "scroll": {"axis": "horizontal", "contentWidth": items * 210.5, "contentHeight": 130,
                                    "policy": "leading", "margin": 8},
                         "children": row_items})
    return {"name": name, "root": {"id": "root", "frame": {"x": 0, "y": 0, "width": 1920, "height": 1080},
                                   "scroll": {"axis": "vertical", "contentWidth": 1920, "contentHeight": rows * 140},
                                   "children": children}}

def call(method, parameters):
    return json.dumps({"method": method, "parameters": parameters}, separators=(",", ":")).encode() + b"\0"

def start(binary, directory, tag):
    sock = os.path.join(directory, f"{tag}.sock")
    config = os.path.join(directory, "focusd.toml")
    open(config, "w").close()
    process = subprocess.Popen([binary, "--socket", sock, "--config", config, "--log-level", "warning", "--no-devices"])
    for _ in range(600):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    return process, s

def roundtrip(s, payload):
    s.sendall(payload)
    reply = b""
    while not reply.endswith(b"\0"):
        chunk = s.recv(1 << 20)
        if not chunk:
            raise SystemExit("connection closed")
        reply += chunk
    if b'"error"' in reply:
        raise SystemExit(reply[:300])

def main():
    binaries = sys.argv[1:3]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    with tempfile.TemporaryDirectory() as directory:
        daemons = [start(b, directory, f"d{n}") for n, b in enumerate(binaries)]
        try:
            for rows, items in [(20, 40), (40, 50), (100, 200)]:
                payload = call("io.focusd.Focus.SetScene", {"scene": page_scene("page", rows, items)})
                remove = call("io.focusd.Focus.RemoveScene", {"scene": "page"})
                times = [[], []]
                for r in range(rounds):
                    for which in (r % 2, 1 - r % 2):
                        s = daemons[which][1]
                        began = time.perf_counter()
                        roundtrip(s, payload)
                        times[which].append(time.perf_counter() - began)
                        roundtrip(s, remove)
                medians = [statistics.median(t) * 1000 for t in times]
                print(f"{rows * (items + 1) + 1} nodes ({len(payload) // 1024} KiB): "
                      f"this {medians[0]:.2f} ms (min {min(times[0]) * 1000:.2f}), "
                      f"baseline {medians[1]:.2f} ms (min {min(times[1]) * 1000:.2f}), ratio {medians[0] / medians[1]:.2f}")
        finally:
            for process, s in daemons:
                s.close()
                process.terminate()
                process.wait()

main()
