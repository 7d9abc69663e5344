#!/usr/bin/env python3
"""The web path end to end in a real browser: Debian's chromium, headless, driven over the
DevTools protocol, loads the demo page that focusd serves in demo mode (web/demo.html, which uses
web/focusd.js) and is checked against a focusd started here.

  Tests/Web/browser_test.py [--build-dir .build/debug] [--screenshot FILE] [--moves N]

Prints one line per check and a closing `N passed, N failed`; exits 1 when a check failed.
"""
import argparse
import base64
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import warnings

from websockets.sync.client import connect
from websockets.sync.server import serve

warnings.filterwarnings("ignore", category=DeprecationWarning)  # connect() outside a `with`
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parser = argparse.ArgumentParser()
parser.add_argument("--build-dir", default=os.path.join(root, ".build/debug"))
parser.add_argument("--screenshot", help="also write the screenshot here (the README's is web/screenshot.png)")
parser.add_argument("--moves", type=int, default=200, help="moves timed for the latency figure")
args = parser.parse_args()

work = tempfile.mkdtemp(prefix="focusd-browser-")
sock_path = os.path.join(work, "focusd.sock")
results = {"passed": 0, "failed": 0}
processes = []


def check(name, condition, detail=""):
    if condition:
        results["passed"] += 1
        print(f"ok - {name}" + (f" ({detail})" if detail else ""))
    else:
        results["failed"] += 1
        print(f"FAILED - {name}" + (f": {detail}" if detail else ""))
    sys.stdout.flush()
    return condition


def wait_for(predicate, timeout=10.0, interval=0.02):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


# --- focusd ------------------------------------------------------------------------------------

def start_focusd(port):
    log = open(os.path.join(work, "focusd.log"), "a")
    process = subprocess.Popen(
        [os.path.join(args.build_dir, "focusd"), "--demo", "--no-devices", "--socket", sock_path,
         "--websocket", f"127.0.0.1:{port}"], stdout=log, stderr=log)
    processes.append(process)
    def listening():
        text = open(os.path.join(work, "focusd.log")).read()
        ports = re.findall(r"port=(\d+) \[Varlink\] serving Varlink over WebSocket", text)
        return int(ports[-1]) if ports and (port == 0 or int(ports[-1]) == port) and len(ports) > len(started) else None
    got = wait_for(listening, 15)
    if not got:
        sys.exit("focusd did not start: " + open(os.path.join(work, "focusd.log")).read())
    started.append(got)
    return process, got


started = []


def varlink(method, parameters=None):
    """One call over the Unix socket (raw NUL-framed Varlink)."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock_path)
    s.sendall(json.dumps({"method": method, "parameters": parameters or {}}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        data += chunk
    s.close()
    return json.loads(data.rstrip(b"\0"))


def focusctl(*words):
    run = subprocess.run([os.path.join(args.build_dir, "focusctl"), "-s", sock_path, *words],
                         capture_output=True, text=True, timeout=20)
    return run.stdout.strip()


# --- chromium over the DevTools protocol -------------------------------------------------------

class Page:
    def __init__(self, ws_url):
        self.ws = connect(ws_url, max_size=None, compression=None, origin=None)
        self.next_id = 0

    def send(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")


def start_chromium():
    profile = os.path.join(work, "chrome")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        sys.exit("chromium is missing: scripts/deps test installs it")
    process = subprocess.Popen(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "--window-size=1280,720", "--force-device-scale-factor=1",
         "--no-first-run", "--disable-background-timer-throttling", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "chromium.log"), "w"))
    processes.append(process)
    port_file = os.path.join(profile, "DevToolsActivePort")
    if not wait_for(lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1, 30):
        sys.exit("chromium did not start: " + open(os.path.join(work, "chromium.log")).read()[-2000:])
    port = int(open(port_file).read().split("\n")[0])
    targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
    page = next(t for t in targets if t["type"] == "page")
    return Page(page["webSocketDebuggerUrl"])


def main():
    focusd, ws_port = start_focusd(0)
    page = start_chromium()
    page.send("Page.enable")
    # A kiosk's browser window has focus; a headless one only when told to (else no
    # element matches :focus, let alone :focus-visible).
    page.send("Emulation.setFocusEmulationEnabled", enabled=True)
    page.send("Page.navigate", url=f"http://127.0.0.1:{ws_port}/")
    ready = wait_for(lambda: page.eval("!!(window.focusdDemo && window.focusdDemo.scene.state)"), 15)
    if not check("the demo page loads the module, connects and sets its scene", ready,
                 page.eval("document.getElementById('status')?.textContent") if not ready else ""):
        return
    scenes = varlink("io.focusd.Focus.ListScenes")["parameters"]
    check("the page's scene is the active one", scenes.get("active") == "web-demo", json.dumps(scenes))

    active = lambda: page.eval("document.activeElement.id")
    first = page.eval("focusdDemo.scene.focused")
    check("focus is applied to the page at start", active() == first and first, f"{first}")

    # focusctl move right → the page's focused element.
    before = active()
    moved_to = focusctl("move", "right")
    after = wait_for(lambda: active() if active() != before else None, 5)
    check("`focusctl move right` moves the page's focused element", after == moved_to and after,
          f"{before} → {after}, focusctl said {moved_to}")
    marked = page.eval("[...document.querySelectorAll('[data-focused]')].map(e => e.id)")
    check("the focused element alone carries data-focused", marked == [after], json.dumps(marked))
    check("the focused element matches :focus-visible", page.eval("document.activeElement.matches(':focus-visible')"))

    # Send select → a click on it.
    clicks = page.eval("focusdDemo.clicks.length")
    reply = varlink("io.focusd.Focus.Send", {"command": "select"})
    clicked = wait_for(lambda: page.eval(f"focusdDemo.clicks.slice({clicks})"), 5)
    check("`Send select` fires the focused element's click", clicked == [after],
          f"clicks {clicked}, reply {reply.get('parameters', reply).get('consumed')}")

    # Bindings and focused values are readable from the page.
    focusctl("focus", "tabMovies")
    wait_for(lambda: active() == "tabMovies", 5)
    binding = wait_for(lambda: page.eval("focusdDemo.scene.binding('tab')") == "movies", 5)
    check("the page reads a binding's value (focused(_:equals:))", binding, f"tab = {page.eval('focusdDemo.scene.binding(`tab`)')}")
    focusctl("focus", "heroNew")
    values = wait_for(lambda: page.eval("focusdDemo.scene.focusedValues.title") == "New", 5)
    check("the page reads the focused values (focusedValue)", values, json.dumps(page.eval("focusdDemo.scene.focusedValues")))
    setter = page.eval("focusdDemo.scene.setBinding('tab', 'shows').then(() => document.activeElement.id)")
    check("a FocusState write from the page focuses the bound element", setter == "tabShows", f"{setter}")
    focusctl("focus", after)
    wait_for(lambda: active() == after, 5)

    # Keyboard reaching the page does not move focus on the page: focusd owns the keys.
    page.send("Input.dispatchKeyEvent", type="keyDown", key="ArrowRight", code="ArrowRight", windowsVirtualKeyCode=39)
    page.send("Input.dispatchKeyEvent", type="keyUp", key="ArrowRight", code="ArrowRight", windowsVirtualKeyCode=39)
    time.sleep(0.3)
    state = varlink("io.focusd.Focus.GetState", {"scene": "web-demo"})["parameters"]["state"]
    check("an arrow key the page receives moves nothing by itself", active() == after and state["focused"] == after,
          f"page {active()}, focusd {state['focused']}")

    # A resized element reaches the scene, through UpdateScene.
    page.eval("focusdDemo.updates = []; focusdDemo.scene.addEventListener('update', e => focusdDemo.updates.push(e.detail)); true")
    page.eval("document.getElementById('heroNew').style.width = '250px'; true")
    def hero_width():
        scene = varlink("io.focusd.Inspect.GetScene", {"scene": "web-demo"})["parameters"]["scene"]
        stack = [scene["root"]]
        while stack:
            node = stack.pop()
            if node["id"] == "heroNew":
                return node["frame"]["width"]
            stack += node.get("children", [])
    width = wait_for(lambda: hero_width() == 250, 5)
    updates = page.eval("focusdDemo.updates")
    upserted = sorted({p["node"]["id"] for u in updates for p in u.get("upsert", [])})
    check("a resized element reaches the scene", width, f"heroNew width {hero_width()}")
    check("…through UpdateScene of that node, not the whole scene", updates and upserted == ["heroNew"],
          f"upserted {upserted}")

    # The binding's side of focus.md §12 on its own: `scroll` and `materialize` events as the
    # contract defines them, handed to the binding directly (this focusd may not send them yet).
    revision = page.eval("focusdDemo.scene.state.revision")
    page.eval(f"focusdDemo.scene._event({{kind: 'scroll', scene: 'web-demo', revision: {revision}, node: 'rail', offsetX: 300, offsetY: 0}}); true")
    check("the binding applies a `scroll` event to its container", page.eval("document.getElementById('rail').scrollLeft") == 300,
          f"rail scrollLeft {page.eval('document.getElementById(`rail`).scrollLeft')}")
    page.eval(f"focusdDemo.scene._event({{kind: 'scroll', scene: 'web-demo', revision: {revision}, node: 'rail', offsetX: 0, offsetY: 0}}); true")
    page.eval(f"focusdDemo.scene._event({{kind: 'materialize', scene: 'web-demo', revision: {revision}, node: 'catalog', index: 9}}); true")
    def scene_ids():
        scene = varlink("io.focusd.Inspect.GetScene", {"scene": "web-demo"})["parameters"]["scene"]
        ids, stack = [], [scene["root"]]
        while stack:
            node = stack.pop()
            ids.append(node["id"])
            stack += node.get("children", [])
        return ids
    check("a `materialize` event reaches the page's lazy list, and the item it builds reaches the scene",
          wait_for(lambda: "item9" in scene_ids(), 5), f"page built {page.eval('!!document.getElementById(`item9`)')}")

    # A scrolled rail scrolls in the page (needs scroll containers in the engine, focus.md §12).
    state = varlink("io.focusd.Focus.GetState", {"scene": "web-demo"})["parameters"]["state"]
    if "scroll" not in state:
        print("skip - a scrolled rail scrolls in the page: this focusd has no scroll containers yet "
              "(FocusState has no `scroll`; focus.md §12)")
    else:
        focusctl("focus", "tile0")
        for _ in range(8):
            focusctl("move", "right")
        offset = lambda: next((s["offsetX"] for s in varlink("io.focusd.Focus.GetState", {"scene": "web-demo"})
                               ["parameters"]["state"]["scroll"] if s["node"] == "rail"), None)
        scrolled = wait_for(lambda: page.eval("document.getElementById('rail').scrollLeft") > 0, 5)
        check("a scrolled rail scrolls in the page", scrolled and abs(page.eval("document.getElementById('rail').scrollLeft") - offset()) < 1,
              f"rail scrollLeft {page.eval('document.getElementById(`rail`).scrollLeft')}, focusd offset {offset()}")

    # A lazy list: focus on an item that is not built asks the page to build it (materialize),
    # and focus passes to the built element (needs collections in the engine, focus.md §12).
    if "scroll" not in state:
        print("skip - materialize builds the item in the page's lazy list: this focusd has no collections yet")
    else:
        focusctl("focus", "catalog#7")
        built = wait_for(lambda: active() == "item7", 5)
        check("materialize builds the item in the page's lazy list, and focus passes to it", built,
              f"page {active()}, built {page.eval('[...document.querySelectorAll(`#catalog [data-focus-index]`)].map(e => e.id)')}")
        check("…and the lazy list's scroll container scrolls to it", page.eval("document.getElementById('more').scrollLeft") > 0)

    # Latency: a move at the socket → the page's focus handler (wall clock on both sides).
    focusctl("focus", "heroFeatured")
    wait_for(lambda: active() == "heroFeatured", 5)
    # One connection, kept open; t0 just before the call is written. The page's handler takes
    # its time with performance.timeOrigin + now() (the same wall clock); no DevTools traffic
    # while a move is in flight.
    mover = socket.socket(socket.AF_UNIX)
    mover.connect(sock_path)
    latencies = []
    for i in range(args.moves):
        page.eval("focusdDemo.next = new Promise(r => document.getElementById('app').addEventListener('focusin',"
                  " () => r(performance.timeOrigin + performance.now()), {once: true})); true")
        call = json.dumps({"method": "io.focusd.Focus.Move",
                           "parameters": {"direction": "right" if i % 2 == 0 else "left"}}).encode() + b"\0"
        sent = time.time() * 1000
        mover.sendall(call)
        reply = b""
        while not reply.endswith(b"\0"):
            reply += mover.recv(65536)
        arrived = page.eval("focusdDemo.next")
        latencies.append(arrived - sent)
    mover.close()
    check("every timed move reached the page's focus handler", len(latencies) == args.moves, f"{len(latencies)} of {args.moves}")

    # The floor in the same run: a bare WebSocket message from Python to a handler in the page.
    arrivals = []
    got = threading.Event()
    def floor_handler(conn):
        for i in range(args.moves):
            sent = time.time() * 1000
            conn.send("x")
            conn.recv(timeout=5)  # the page's echo, after it took its timestamp
            arrivals.append(sent)
        got.set()
    with serve(floor_handler, "127.0.0.1", 0) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        floor_port = server.socket.getsockname()[1]
        page.eval(f"""new Promise(resolve => {{
            focusdDemo.floor = [];
            const ws = new WebSocket('ws://127.0.0.1:{floor_port}');
            ws.onmessage = () => {{ focusdDemo.floor.push(performance.timeOrigin + performance.now()); ws.send('y'); }};
            ws.onopen = () => resolve(true);
        }})""")
        got.wait(60)
        server.shutdown()
    floor_times = page.eval("focusdDemo.floor")
    floor = [t - s for s, t in zip(arrivals, floor_times)]

    def figure(values):
        values = sorted(values)
        return statistics.median(values), values[min(len(values) - 1, round(0.99 * (len(values) - 1)))]
    if latencies and floor:
        (med, p99), (fmed, fp99) = figure(latencies), figure(floor)
        print(f"figure - move at the socket → page focus handler: median {med:.2f} ms, p99 {p99:.2f} ms ({len(latencies)} moves); "
              f"floor, bare WebSocket message → page handler: median {fmed:.2f} ms, p99 {fp99:.2f} ms")

    # Reconnect: focusd restarts on the same port; the page reconnects and sets its scene again.
    focusd.send_signal(signal.SIGTERM)
    focusd.wait(10)
    wait_for(lambda: not page.eval("focusdDemo.client.connected"), 5)
    start_focusd(ws_port)
    back = wait_for(lambda: varlink("io.focusd.Focus.ListScenes")["parameters"].get("active") == "web-demo", 20, 0.1)
    check("after focusd restarts the page reconnects and sends its scene again", back,
          json.dumps(varlink("io.focusd.Focus.ListScenes")["parameters"]))
    moved_to = focusctl("move", "right")
    check("…and focus moves on the page again", wait_for(lambda: active() == moved_to, 5), f"page {active()}, focusd {moved_to}")

    # The screenshot for the README: focus on a hero item.
    focusctl("focus", "heroTrending")
    wait_for(lambda: active() == "heroTrending", 5)
    time.sleep(0.3)
    shot = base64.b64decode(page.send("Page.captureScreenshot", format="png", clip={
        "x": 0, "y": 0, "width": 1200, "height": 640, "scale": 1})["data"])
    path = os.path.join(work, "screenshot.png")
    open(path, "wb").write(shot)
    if args.screenshot:
        shutil.copy(path, args.screenshot)
    check("a screenshot of the page with focus", len(shot) > 1000, path)


try:
    main()
finally:
    for process in processes:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
print(f"{results['passed']} passed, {results['failed']} failed")
sys.exit(1 if results["failed"] else 0)
