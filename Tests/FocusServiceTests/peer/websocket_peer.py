"""focusd over WebSocket, from a client that is not ours (the `websockets` package from PyPI).

Usage: websocket_peer.py SCENARIO WS_URL UNIX_SOCKET
Prints what it checked; exits 1 with the reason on the first failure. Run by WebSocketTests.swift.
"""
import base64
import json
import os
import select
import socket
import sys
import time
import warnings

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

warnings.filterwarnings("ignore", category=DeprecationWarning)  # connect() outside a `with`
scenario, url, unix_path = sys.argv[1], sys.argv[2], sys.argv[3]
ORIGIN = "http://localhost:8080"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def ws(origin=ORIGIN, **kwargs):
    return connect(url, origin=origin, compression=None, open_timeout=10, max_size=None, **kwargs)


def ws_call(conn, method, parameters=None, **flags):
    conn.send(json.dumps({"method": method, "parameters": parameters or {}, **flags}))
    return json.loads(conn.recv(timeout=10))


class Unix:
    """A raw NUL-framed Varlink connection, to compare replies byte for byte with WebSocket."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(unix_path)
        self.buffer = b""

    def call(self, method, parameters=None, **flags):
        self.sock.sendall(json.dumps({"method": method, "parameters": parameters or {}, **flags}).encode() + b"\0")
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                fail("unix socket closed")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self):
        self.sock.close()


def refused(expected_status, **kwargs):
    try:
        with ws(**kwargs) as conn:
            ws_call(conn, "org.varlink.service.GetInfo")
    except InvalidStatus as error:
        status = error.response.status_code
        body = error.response.body.decode(errors="replace").strip()
        if status != expected_status:
            fail(f"{kwargs}: status {status}, expected {expected_status} ({body})")
        return body
    fail(f"{kwargs}: the handshake was accepted")


SCENE = {"name": "login", "root": {"id": "root", "frame": {"x": 0, "y": 0, "width": 1920, "height": 1080}, "children": [
    {"id": "user", "focusable": True, "frame": {"x": 660, "y": 300, "width": 600, "height": 80},
     "bindings": [{"name": "field", "value": "user"}], "values": {"hint": "name"}},
    {"id": "password", "focusable": True, "frame": {"x": 660, "y": 420, "width": 600, "height": 80},
     "bindings": [{"name": "field", "value": "password"}]},
    {"id": "signIn", "focusable": True, "interactions": ["activate"], "frame": {"x": 810, "y": 560, "width": 300, "height": 80}}]}}

CALLS = [
    ("org.varlink.service.GetInfo", {}, {}),
    ("org.varlink.service.GetInterfaceDescription", {"interface": "io.focusd.Focus"}, {}),
    ("org.varlink.service.GetInterfaceDescription", {"interface": "io.focusd.Input"}, {}),
    ("org.varlink.service.GetInterfaceDescription", {"interface": "io.focusd.Inspect"}, {}),
    ("org.varlink.service.GetInterfaceDescription", {"interface": "no.such"}, {}),
    ("io.focusd.Focus.SetScene", {"scene": SCENE}, {}),
    ("io.focusd.Focus.GetState", {"scene": "login"}, {}),
    ("io.focusd.Focus.Move", {"direction": "down", "scene": "login"}, {}),
    ("io.focusd.Focus.Move", {"direction": "sideways", "scene": "login"}, {}),
    ("io.focusd.Focus.Focus", {"id": "signIn", "scene": "login"}, {}),
    ("io.focusd.Focus.Focus", {"id": "nobody", "scene": "login"}, {}),
    ("io.focusd.Focus.SetBinding", {"name": "field", "value": "user", "scene": "login"}, {}),
    ("io.focusd.Focus.Send", {"command": "select", "scene": "login"}, {}),
    ("io.focusd.Focus.UpdateScene", {"scene": "login", "remove": ["password"]}, {}),
    ("io.focusd.Focus.ListScenes", {}, {}),
    ("io.focusd.Inspect.GetScene", {"scene": "login"}, {}),
    ("io.focusd.Input.ListDevices", {}, {}),
    ("io.focusd.Focus.Monitor", {"scene": "login"}, {}),
    ("io.focusd.Focus.NoSuchMethod", {}, {}),
    ("io.focusd.Focus.Lint", {"scene": SCENE}, {}),
    ("io.focusd.Focus.RemoveScene", {"scene": "login"}, {}),
]


def conformance():
    unix = Unix()
    over_unix = [unix.call(m, p, **f) for m, p, f in CALLS]
    unix.close()  # RemoveScene, answered above, already took the scene away
    with ws() as conn:
        over_ws = [ws_call(conn, m, p, **f) for m, p, f in CALLS]
    for (method, _, _), a, b in zip(CALLS, over_unix, over_ws):
        if a != b:
            fail(f"{method}: unix {json.dumps(a)[:300]} != websocket {json.dumps(b)[:300]}")
    print(f"{len(CALLS)} calls: the same replies over the Unix socket and over WebSocket")
    errors = sorted({r.get("error") for r in over_ws if r.get("error")})
    print("errors among them:", ", ".join(errors))

    # A `more` stream over WebSocket: Monitor on one connection, moves on another.
    with ws() as setter, ws() as monitor:
        ws_call(setter, "io.focusd.Focus.SetScene", {"scene": SCENE})
        first = ws_call(monitor, "io.focusd.Focus.Monitor", {"scene": "login"}, more=True)
        if not first.get("continues") or first["parameters"]["state"]["focused"] != "user":
            fail(f"Monitor's first reply: {first}")
        ws_call(setter, "io.focusd.Focus.Move", {"direction": "down", "scene": "login"})
        kinds = []
        while "focus" not in kinds:
            reply = json.loads(monitor.recv(timeout=5))
            event = reply["parameters"].get("event") or {}
            kinds.append(event.get("kind"))
            if event.get("kind") == "focus" and event.get("to") != "password":
                fail(f"focus event {event}")
        print("Monitor streams over WebSocket:", kinds)
        # Pipelined calls are answered in order, one frame each.
        for i in range(3):
            setter.send(json.dumps({"method": "io.focusd.Focus.GetState", "parameters": {"scene": "login"}}))
        revisions = [json.loads(setter.recv(timeout=5))["parameters"]["state"]["revision"] for _ in range(3)]
        if len(set(revisions)) != 1:
            fail(f"pipelined GetState: {revisions}")
        pong = setter.ping(b"hello")
        if not pong.wait(5):
            fail("no pong to a ping")
        print("pipelined calls answered in order; ping answered with pong")


def origins():
    for origin in ["http://localhost", "http://localhost:3000", "https://127.0.0.1:8443", "http://[::1]:80", "file://"]:
        with ws(origin=origin) as conn:
            if "error" in ws_call(conn, "org.varlink.service.GetInfo"):
                fail(f"origin {origin}")
    print("allowed: localhost, 127.0.0.1, [::1] (any port, http and https) and file://")
    for origin in ["http://evil.example", "http://localhost.evil.example", "null", "http://127.0.0.2"]:
        body = refused(403, origin=origin)
        print(f"refused {origin}: 403 {body}")
    print("refused without Origin: 403", refused(403, origin=None))


def token():
    token = os.environ["FOCUSD_TEST_TOKEN"]
    print("no token: 403", refused(403))
    print("wrong token: 403", refused(403, subprotocols=["focusd.token.wrong-token-wrong-token"]))
    with ws(subprotocols=[f"focusd.token.{token}"]) as conn:
        if conn.subprotocol != f"focusd.token.{token}":
            fail(f"subprotocol not echoed: {conn.subprotocol}")
        reply = ws_call(conn, "io.focusd.Focus.GetState", {})
        print("token as subprotocol: accepted, subprotocol echoed; GetState:", reply.get("error") or "ok")
        move = ws_call(conn, "io.focusd.Focus.Move", {"direction": "right"})
        if move.get("error") != "io.focusd.Focus.PermissionDenied":
            fail(f"readOnly access: Move answered {move}")
        print("access readOnly: Move is", move["error"])
    with connect(url + f"?token={token}", origin=ORIGIN, compression=None) as conn:
        print("token as ?token=: accepted", ws_call(conn, "org.varlink.service.GetInfo")["parameters"]["product"])
    try:
        with connect(url + "?token=wrong-token-wrong-token", origin=ORIGIN, compression=None):
            fail("a wrong ?token= was accepted")
    except InvalidStatus as error:
        if error.response.status_code != 403:
            fail(f"wrong ?token=: {error.response.status_code}")
        print("wrong ?token=: 403", error.response.body.decode().strip())


def expect_closed(conn, what):
    try:
        while True:
            conn.recv(timeout=5)
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd else None
        print(f"{what}: connection closed, code {code}")
        return code
    except TimeoutError:
        fail(f"{what}: the connection stayed open")


def limits():
    # The config of this run: maxMessageBytes = 4096.
    with ws() as conn:
        conn.send(json.dumps({"method": "org.varlink.service.GetInfo", "parameters": {"pad": "x" * 8000}}))
        if expect_closed(conn, "an 8 KB frame over the 4 KB message cap") != 1009:
            fail("expected close code 1009")
    with ws() as conn:
        # Fragmented: each fragment is small, the message is not.
        conn.send(["{\"method\":\"org.varlink.service.GetInfo\",\"parameters\":{\"pad\":\"", "x" * 3000, "x" * 3000, "\"}}"])
        if expect_closed(conn, "a fragmented 6 KB message") != 1009:
            fail("expected close code 1009")
    with ws() as conn:
        conn.send("[" * 600 + "]" * 600)
        expect_closed(conn, "JSON nested 600 deep")
    with ws() as conn:
        conn.send("{not json")
        expect_closed(conn, "malformed JSON")
    with ws() as conn:
        conn.send(b"\x01\x02")
        if expect_closed(conn, "a binary frame") != 1003:
            fail("expected close code 1003")
    for name, payload in [("a text frame that is not UTF-8", b'{"method":"org.varlink.service.GetInfo","parameters":{"x":"\xff"}}'),
                          ("a text frame with a NUL inside", b'{"method":"org.varlink.service.GetInfo"}\0{}')]:
        sock = raw_handshake()
        sock.sendall(frame("", payload))
        sock.settimeout(5)
        data = b""
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
        code = int.from_bytes(data[2:4], "big") if data[:1] == b"\x88" else None
        print(f"{name}: closed, code {code}")
        if code != 1007:
            fail(f"{name}: expected close code 1007, got {data[:8]!r}")
    with ws() as conn:
        reply = ws_call(conn, "org.varlink.service.GetInfo")
        if reply["parameters"]["product"] != "focusd":
            fail(f"GetInfo after the bad clients: {reply}")
    print("the daemon serves the next client as before")


def raw_handshake():
    """A WebSocket opened by hand, to be a client that never reads."""
    host, port = url[len("ws://"):].rstrip("/").rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {ORIGIN}\r\n\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)
    if b" 101 " not in response.split(b"\r\n")[0]:
        fail(f"raw handshake: {response!r}")
    return sock


def frame(text, payload=None, opcode=0x1):
    payload = text.encode() if payload is None else payload
    mask = os.urandom(4)
    header = bytearray([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header.append(0x80 | n)
    elif n < 65536:
        header += bytes([0x80 | 126]) + n.to_bytes(2, "big")
    else:
        header += bytes([0x80 | 127]) + n.to_bytes(8, "big")
    return bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def recv_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            fail(f"the daemon closed the connection ({len(data)} of {count} bytes)")
        data += chunk
    return data


def never_reads():
    # The config of this run: outgoingQueueBytes = 65536, slowClientTimeout = 0.5.
    sock = raw_handshake()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    call = frame(json.dumps({"method": "org.varlink.service.GetInterfaceDescription", "parameters": {"interface": "io.focusd.Focus"}}))
    sock.setblocking(False)
    sent = 0
    deadline = time.time() + 5
    while time.time() < deadline and sent < 3000:
        try:
            sock.sendall(call)
            sent += 1
        except BlockingIOError:
            break  # the daemon holds its reads: backpressure
    print(f"a client that never reads pipelined {sent} calls (~{sent * 10} KB of replies) before the daemon stopped reading")
    # Meanwhile others are served at once.
    with ws() as conn:
        ws_call(conn, "io.focusd.Focus.SetScene", {"scene": SCENE})
        start = time.perf_counter()
        for i in range(200):
            reply = ws_call(conn, "io.focusd.Focus.Move", {"direction": "down" if i % 2 == 0 else "up", "scene": "login"})
            if not reply["parameters"]["moved"]:
                fail(f"move {i}: {reply}")
        per_move = (time.perf_counter() - start) / 200 * 1000
        print(f"another client's 200 moves meanwhile: {per_move:.2f} ms each")
    # Not a byte read until the daemon has cut it off (a read would be progress): the poll wakes
    # on the daemon's close (FIN or reset), with unread replies still waiting here.
    poller = select.poll()
    poller.register(sock, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
    if not poller.poll(10_000):
        fail("the client that never read was not disconnected")
    sock.setblocking(True)
    sock.settimeout(10)
    received = 0
    try:
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                break
            received += len(chunk)
    except (ConnectionResetError, TimeoutError) as error:
        if isinstance(error, TimeoutError):
            fail("the client that never read was not disconnected")
    if sent > 100 and received >= sent * 9000:
        fail(f"all {received} bytes were queued for the stuck client")
    print(f"it was disconnected; {received} bytes had been queued or in flight")


def many():
    # The config of this run: maxConnections = 200.
    unix = Unix()
    unix.call("io.focusd.Focus.SetScene", {"scene": {**SCENE, "persist": True}})
    connections = [ws() for _ in range(200)]
    for conn in connections:
        first = ws_call(conn, "io.focusd.Focus.Monitor", {"scene": "login"}, more=True)
        if first["parameters"]["state"]["focused"] != "user":
            fail(f"monitor: {first}")
    status = refused(503)
    print("the 201st handshake: 503", status)
    unix.call("io.focusd.Focus.Move", {"direction": "down", "scene": "login"})
    for index, conn in enumerate(connections):
        while True:
            event = json.loads(conn.recv(timeout=10))["parameters"].get("event") or {}
            if event.get("kind") == "focus":
                break
        if event["to"] != "password":
            fail(f"connection {index}: {event}")
    print("200 WebSocket monitors each got the focus event of one move")
    connections[0].close()  # returns once the daemon has closed its side: the slot is free
    with ws() as conn:
        ws_call(conn, "org.varlink.service.GetInfo")
    print("a closed connection frees its slot")
    for conn in connections[1:]:
        conn.close()
    unix.close()


def pings():
    # The config of this run: pingInterval = 0.3 (seconds). A client that answers pings stays,
    # one that does not is closed.
    sock = raw_handshake()
    sock.settimeout(5)
    got = b""
    start = time.time()
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            got += chunk
    except (ConnectionResetError, TimeoutError):
        fail("a client that never answers pings was not closed")
    elapsed = time.time() - start
    if b"\x89" not in got[:2] and not got.startswith(b"\x89"):
        fail(f"no ping frame first: {got[:8]!r}")
    print(f"a client that never answers pings got a ping, then was closed after {elapsed:.1f} s")
    # A client that answers pings: three pings (three intervals) answered, then a call.
    sock = raw_handshake()
    sock.settimeout(5)
    pings = 0
    while pings < 3:
        head = recv_exactly(sock, 2)
        length = head[1] & 0x7F
        if head[1] & 0x80 or length > 125:
            fail(f"unexpected frame from the daemon: {head!r}")
        payload = recv_exactly(sock, length)
        if head[0] & 0x0F != 0x9:
            fail(f"a frame other than a ping before any call: {head!r}")
        sock.sendall(frame("", payload, opcode=0xA))
        pings += 1
    sock.sendall(frame(json.dumps({"method": "org.varlink.service.GetInfo", "parameters": {}})))
    while True:
        head = recv_exactly(sock, 2)
        length = head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(recv_exactly(sock, 2), "big")
        elif length == 127:
            length = int.from_bytes(recv_exactly(sock, 8), "big")
        payload = recv_exactly(sock, length)
        if head[0] & 0x0F == 0x9:
            sock.sendall(frame("", payload, opcode=0xA))
            continue
        if head[0] & 0x0F != 0x1 or "interfaces" not in json.loads(payload)["parameters"]:
            fail(f"GetInfo after three pings: {head!r} {payload[:200]!r}")
        break
    sock.close()
    print(f"a client that answers pings stays connected ({pings} pings answered, then a call)")


def pages():
    import urllib.request
    base = "http://" + url[len("ws://"):].rstrip("/")
    with urllib.request.urlopen(base + "/focusd.js") as response:
        body = response.read().decode()
        if "export function bindScene" not in body or "javascript" not in response.headers["Content-Type"]:
            fail("/focusd.js")
    with urllib.request.urlopen(base + "/") as response:
        if "bindScene" not in response.read().decode():
            fail("/")
    print("demo mode serves / and /focusd.js")


def reload():
    # The config of this run: token A; the script writes token B (and an origin list) and reloads.
    config = os.environ["FOCUSD_TEST_CONFIG"]
    old, new = "first-token-0123456789", "second-token-0123456789"
    with ws(subprotocols=[f"focusd.token.{old}"]) as kept:
        open(config, "w").write(f'[websocket]\ntoken = "{new}"\norigins = ["https://kiosk.example"]\n')
        unix = Unix()
        reply = unix.call("io.focusd.Input.ReloadConfig")
        if "error" in reply:
            fail(f"ReloadConfig: {reply}")
        print("old token after the reload: 403", refused(403, origin="https://kiosk.example", subprotocols=[f"focusd.token.{old}"]))
        print("old origin after the reload: 403", refused(403, subprotocols=[f"focusd.token.{new}"]))
        with ws(origin="https://kiosk.example", subprotocols=[f"focusd.token.{new}"]) as conn:
            ws_call(conn, "org.varlink.service.GetInfo")
        print("the new token from the new origin: accepted")
        if "error" in ws_call(kept, "org.varlink.service.GetInfo"):
            fail("the connection opened before the reload was dropped")
        print("a connection opened before the reload stays")


{"reload": reload, "conformance": conformance, "origins": origins, "token": token, "limits": limits, "never-reads": never_reads,
 "many": many, "pings": pings, "pages": pages}[scenario]()
print("OK")
