"""What the chromium adapter's test and benchmark share: a real focusd, the real adapter launching
a real headless chromium (over --remote-debugging-pipe), and a SECOND DevTools connection to that
browser (--remote-debugging-port=0 beside the pipe) from which the checks read the page's DOM.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import warnings

from websockets.sync.client import connect

warnings.filterwarnings("ignore", category=DeprecationWarning)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = os.path.join(ROOT, "Tests/Adapters/pages")
# The isolated world the adapter runs its page agent in (PageAdapter.agentWorld).
AGENT_WORLD = "focusd"


def page_url(name, query=""):
    return f"file://{PAGES}/{name}{query}"


def wait_for(predicate, timeout=10.0, interval=0.01):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


class Varlink:
    """A blocking Varlink client on focusd's socket."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def send(self, method, parameters=None, more=False):
        message = {"method": method, "parameters": parameters or {}}
        if more:
            message["more"] = True
        self.sock.sendall(json.dumps(message).encode() + b"\0")

    def receive(self, timeout=10.0):
        self.sock.settimeout(timeout)
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("focusd closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, parameters=None):
        self.send(method, parameters)
        reply = self.receive()
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']} {reply.get('parameters')}")
        return reply.get("parameters", {})

    def close(self):
        self.sock.close()


class Session:
    """One run: a work directory, focusd, the adapter with its browser, and helpers."""

    def __init__(self, build_dir, focusd=None):
        self.build_dir = build_dir
        self.focusd_binary = focusd or os.path.join(build_dir, "focusd")
        self.work = tempfile.mkdtemp(prefix="focusd-adapter-")
        self.socket = os.path.join(self.work, "run", "focusd.sock")
        self.profile = os.path.join(self.work, "chrome")
        self.focusd = None
        self.adapter = None
        self.others = []  # more processes a test started, stopped with the rest
        self.logs = []

    def log(self, name):
        path = os.path.join(self.work, name)
        self.logs.append(path)
        return open(path, "a")

    def start_focusd(self):
        self.focusd = subprocess.Popen([self.focusd_binary, "--no-devices", "--socket", self.socket],
                                       stdout=self.log("focusd.log"), stderr=subprocess.STDOUT)
        if not wait_for(lambda: os.path.exists(self.socket), 10):
            sys.exit("focusd did not start: " + open(os.path.join(self.work, "focusd.log")).read())
        time.sleep(0.05)

    def stop_focusd(self):
        if self.focusd and self.focusd.poll() is None:
            self.focusd.send_signal(signal.SIGTERM)
            try:
                self.focusd.wait(10)
            except subprocess.TimeoutExpired:
                self.focusd.kill()
                self.focusd.wait()

    def browser_command(self, url, extra=()):
        browser = shutil.which("chromium") or shutil.which("chromium-browser")
        if not browser:
            sys.exit("chromium is missing: scripts/deps test installs it")
        return [browser, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}", "--window-size=1280,720", "--force-device-scale-factor=1",
                "--no-first-run", "--disable-background-timer-throttling", *extra, url]

    def start_adapter(self, url, adapter=None, options=()):
        command = [adapter or os.path.join(self.build_dir, "focusd-adapter"), "chromium", *(["-v"] if os.environ.get("ADAPTER_VERBOSE") else []), "--socket", self.socket, *options,
                   "--launch", "--", *self.browser_command(url)]
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        if os.path.exists(port_file):  # an earlier browser's, stopped without removing it
            os.remove(port_file)
        self.adapter = subprocess.Popen(command, stdout=self.log("adapter.log"), stderr=subprocess.STDOUT)
        if not wait_for(lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1, 30):
            sys.exit("chromium did not start: " + open(os.path.join(self.work, "adapter.log")).read()[-3000:])
        self.port = int(open(port_file).read().split("\n")[0])

    def stop(self):
        for process in self.others:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if self.adapter and self.adapter.poll() is None:
            self.adapter.send_signal(signal.SIGTERM)
            try:
                self.adapter.wait(10)
            except subprocess.TimeoutExpired:
                self.adapter.kill()
        self.stop_focusd()

    def page(self):
        """The second DevTools connection to the (first) page target."""
        targets = wait_for(lambda: [t for t in json.load(urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list"))
                                    if t["type"] == "page"], 10)
        return Page(targets[0]["webSocketDebuggerUrl"], targets[0]["id"])

    def varlink(self):
        return Varlink(self.socket)

    def start_page(self, url, adapter=None):
        """focusd, then the adapter on `url`: (the page, a client of focusd, the page's scene name)
        once that scene is active."""
        self.start_focusd()
        self.start_adapter(url, adapter=adapter)
        page = self.page()
        focusd = self.varlink()
        scene = page.scene_name()
        if not wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes").get("active") == scene, 15):
            sys.exit("the page's scene did not appear: " + self.adapter_log()[-2000:])
        return page, focusd, scene

    def adapter_log(self):
        return open(os.path.join(self.work, "adapter.log"), errors="replace").read()


class Page:
    """A page target over its own WebSocket: evaluates, and collects the events it is sent."""

    def __init__(self, ws_url, target_id):
        self.ws = connect(ws_url, max_size=None, compression=None, origin=None)
        # No Nagle delay on the measuring connection (the adapter sets TCP_NODELAY on its own).
        self.ws.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.target = target_id
        self.next_id = 0
        self.events = []
        self.contexts = {}  # execution contexts by id, from every Runtime notice read (`agent`)
        self.runtime = False  # Runtime enabled here by `agent` (a caller may have enabled it too)

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
            self.note(message)
            self.events.append(message)

    def next_event(self, method, timeout=10.0):
        """The next event named `method` (earlier ones collected first)."""
        for index, event in enumerate(self.events):
            if event.get("method") == method:
                return self.events.pop(index)
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = json.loads(self.ws.recv(timeout=max(0.001, deadline - time.time())))
            self.note(message)
            if message.get("method") == method:
                return message
            self.events.append(message)
        return None

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def agent(self, expression, timeout=5.0):
        """`expression` evaluated in the page agent's world (`window.__focusd` there): the isolated
        world the adapter made in the top document, found by its name among the contexts Runtime
        reports (every session's, the adapter's too)."""
        deadline = time.time() + timeout
        while True:
            context = self.agent_context()
            try:
                if context is None:
                    raise RuntimeError("the page agent's world is not there")
                result = self.send("Runtime.evaluate", expression=expression, contextId=context, awaitPromise=True, returnByValue=True)
            except RuntimeError:
                if time.time() > deadline:
                    raise
                time.sleep(0.02)  # a new document: its world is on its way
                continue
            if "exceptionDetails" in result:
                raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
            return result["result"].get("value")

    def note(self, message):
        """Keeps the execution contexts a Runtime notice reports (whoever clears `events`)."""
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.executionContextCreated":
            self.contexts[params["context"]["id"]] = params["context"]
        elif method == "Runtime.executionContextDestroyed":
            self.contexts.pop(params.get("executionContextId"), None)
        elif method == "Runtime.executionContextsCleared":
            self.contexts.clear()

    def agent_context(self):
        """The id of the top document's agent world, as the contexts reported so far say."""
        if not self.runtime:
            # Enabled afresh, so every context is reported now, even if a caller enabled it before.
            self.runtime = True
            self.send("Runtime.disable")
            self.contexts.clear()
            self.send("Runtime.enable")
        else:
            self.send("Runtime.evaluate", expression="0")  # the notices sent before its answer are read
        ours = [ident for ident, context in self.contexts.items()
                if context.get("name") == AGENT_WORLD and context.get("auxData", {}).get("frameId") == self.target]
        return max(ours) if ours else None

    def box(self, selector):
        """[x, y, width, height] of the border box of the element `selector` finds (viewport
        coordinates), read by DOM.getBoxModel: no JavaScript of the page's is involved."""
        document = self.send("DOM.getDocument", depth=0)["root"]["nodeId"]
        node = self.send("DOM.querySelector", nodeId=document, selector=selector)["nodeId"]
        quad = self.send("DOM.getBoxModel", nodeId=node)["model"]["border"]
        return [quad[0], quad[1], quad[4] - quad[0], quad[5] - quad[1]]

    def active(self):
        return self.eval("document.activeElement && document.activeElement !== document.body ? document.activeElement.id : null")

    def scene_name(self):
        return f"chromium:{self.target}"


def wakeups(pid):
    """Context switches of every thread of `pid` (voluntary + involuntary): each is a wake-up."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            for line in open(f"/proc/{pid}/task/{task}/status"):
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def resident_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


def drain_events(monitor, quiet=0.2):
    """Drops what a Monitor stream has queued, until it has been quiet for `quiet` seconds."""
    while True:
        try:
            monitor.receive(timeout=quiet)
        except (TimeoutError, OSError):
            return


def scene_arrival(monitor, focusd, scene, last, clock=time.perf_counter, timeout=10):
    """`clock()` when the `scene` event came after which focusd holds `last` as the scene root's
    last child (a page's new document), or None. Every scene change is a `scene` event (an
    UpdateScene's too), so an event of the old document is not taken for the new one's."""
    def arrived():
        try:
            reply = monitor.receive(timeout=0.5)
        except (TimeoutError, OSError):
            return None
        at = clock()
        if reply.get("parameters", {}).get("event", {}).get("kind") != "scene":
            return None
        held = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"].get("children", [])
        return at if held and held[-1].get("id") == last else None
    return wait_for(arrived, timeout, interval=0)
