#!/usr/bin/env python3
"""focusd's cost of a web page's first scene: the SetScene the chromium adapter sends for
Tests/Adapters/pages/many.html?n=5000 (5,000 buttons in rows of 50, 410,543 bytes, written as the
page agent writes it: whole numbers without a fraction), sent again and again to replace itself,
with focusd's CPU time per call (its /proc stat, all threads: the read from bytes, the build, the
install and the old tree's freeing) beside the wall time of each call, and, as the floor, the same
for a SetScene of the scene's root alone. Run several focusd binaries to compare them (alternated):

  Tests/Adapters/setscene_cpu.py FOCUSD [FOCUSD…] [--rounds 40] [--repeat 2]
"""
import argparse
import json
import os
import socket
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("focusd", nargs="+")
parser.add_argument("--rounds", type=int, default=40)
parser.add_argument("--repeat", type=int, default=1, help="how many times to go through the binaries")
parser.add_argument("--count", type=int, default=5000)
args = parser.parse_args()


def page_scene(count):
    """The scene the agent sends for many.html?n=COUNT at 1280×720 (the bench's window)."""
    children = [{"id": f"b{i}", "frame": {"x": 8 + (i % 50) * 64, "y": 8 + (i // 50) * 34, "width": 60, "height": 30},
                 "focusable": True} for i in range(count)]
    rows = (count + 49) // 50
    root = {"id": "#document", "frame": {"x": 0, "y": 0, "width": 1280, "height": 577},
            "scroll": {"axis": "both", "contentWidth": 3204, "contentHeight": 8 + rows * 34 - 4 + 8, "offsetX": 0, "offsetY": 0},
            "children": children}
    return {"name": "page", "root": root}


def message(scene):
    return json.dumps({"method": "io.focusd.Focus.SetScene", "parameters": {"scene": scene}}, separators=(",", ":")).encode() + b"\0"


def cpu_ms(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def measure(connection, pid, text, rounds):
    walls = []
    before = cpu_ms(pid)
    for _ in range(rounds):
        started = time.perf_counter()
        connection.sendall(text)
        reply = b""
        while not reply.endswith(b"\0"):
            reply += connection.recv(1 << 20)
        walls.append((time.perf_counter() - started) * 1000)
        if b'"error"' in reply[:200]:
            raise SystemExit(f"focusd refused the scene: {reply[:300]!r}")
        time.sleep(0.05)  # the old tree is freed on the worker meanwhile (counted in the CPU time)
    cpu = (cpu_ms(pid) - before) / rounds
    walls.sort()
    return cpu, walls[len(walls) // 2], walls[0]


full = message(page_scene(args.count))
bare = page_scene(0)
del bare["root"]["children"]
floor = message(bare)
for _ in range(args.repeat):
    for binary in args.focusd:
        work = tempfile.mkdtemp(prefix="setscene-cpu-")
        path = os.path.join(work, "focusd.sock")
        focusd = subprocess.Popen([binary, "--no-devices", "--socket", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 10
            while not os.path.exists(path):
                if time.time() > deadline or focusd.poll() is not None:
                    raise SystemExit(f"{binary} did not start")
                time.sleep(0.01)
            connection = socket.socket(socket.AF_UNIX)
            connection.connect(path)
            connection.settimeout(10)
            measure(connection, focusd.pid, full, 3)  # warm
            cpu, wall, fastest = measure(connection, focusd.pid, full, args.rounds)
            measure(connection, focusd.pid, floor, 3)  # warm (the first one frees the page's tree)
            floor_cpu, floor_wall, _ = measure(connection, focusd.pid, floor, args.rounds)
            print(f"{binary}: SetScene of {args.count} buttons ({len(full) - 1} bytes): focusd CPU {cpu:.1f} ms per call, "
                  f"wall median {wall:.1f} ms (fastest {fastest:.1f}) | floor, the root alone: CPU {floor_cpu:.2f} ms, "
                  f"wall median {floor_wall:.2f} ms; load {open('/proc/loadavg').read().split()[0]}", flush=True)
            connection.close()
        finally:
            focusd.terminate()
            focusd.wait(10)
