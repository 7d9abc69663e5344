"""Helpers for the real-kernel scenarios: simulated devices, the bare reader, udev, assertions.

Scenarios run in the QEMU guest with $RK_BIN (the host's swift build directory) and, for the
focusd ones, $RK_FOCUSD (the daemon's path). See Tests/RealKernel/README.md.
"""

import os
import queue
import re
import subprocess
import sys
import threading
import time

BIN = os.environ.get("RK_BIN", "")
TESTDEVICE = os.path.join(BIN, "focusd-testdevice")
FOCUSD = os.environ.get("RK_FOCUSD", "")
NAME_PREFIX = "focusd-test "


class Fail(Exception):
    """A failed expectation; the message is the scenario's result line."""


def check(condition, message):
    if not condition:
        raise Fail(message)


def scenario(body):
    """Runs `body()`, prints `ok: <what it returned>` or `FAIL: <why>`, exits 0 or 1."""
    try:
        summary = body()
    except Fail as e:
        print(f"FAIL: {e}", flush=True)
        sys.exit(1)
    print(f"ok: {summary}", flush=True)
    sys.exit(0)


class Lines:
    """A pipe read line by line by a thread, so callers can wait with a timeout."""

    def __init__(self, stream, label):
        self.queue = queue.Queue()
        self.label = label
        self.seen = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for line in stream:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def next(self, timeout):
        """The next line, or None at end of stream; Fail after `timeout` seconds."""
        try:
            line = self.queue.get(timeout=timeout)
        except queue.Empty:
            raise Fail(f"{self.label}: nothing within {timeout} s (last lines: {self.seen[-3:]})")
        if line is not None:
            self.seen.append(line)
        return line

    def expect(self, pattern, timeout=10):
        """Skips lines until one matches `pattern`; returns the match."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.01, deadline - time.monotonic()))
            if line is None:
                raise Fail(f"{self.label}: ended before /{pattern}/ (last lines: {self.seen[-3:]})")
            m = re.search(pattern, line)
            if m:
                return m


class Device:
    """A simulated device: `focusd-testdevice create MODEL`, fed script lines on stdin."""

    def __init__(self, model, name=None):
        args = [TESTDEVICE, "create", model] + (["--name", name] if name else [])
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out = Lines(self.proc.stdout, f"device {model}")
        self.model = model
        self._sync = 0
        try:
            self.node = self.out.expect(r"^node (\S+)", timeout=20).group(1)
        except Fail:
            raise Fail(f"device {model} not created: {self.proc.stderr.read().strip()}")

    def send(self, *lines):
        self.proc.stdin.write("".join(l + "\n" for l in lines))
        self.proc.stdin.flush()

    def sync(self, timeout=20):
        """Waits until the device process has played everything sent so far."""
        self._sync += 1
        token = f"sync-{self._sync}"
        self.send(f"echo {token}")
        self.out.expect(f"^{token}$", timeout)

    def recreate(self, timeout=20):
        """Destroys and re-creates the device; returns the new node."""
        self.send("recreate")
        self.node = self.out.expect(r"^node (\S+)", timeout).group(1)
        return self.node

    def close(self, timeout=10):
        """Ends the script: the device is destroyed."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.proc.wait(timeout)
        check(self.proc.returncode == 0,
              f"device {self.model} exited {self.proc.returncode}: {self.proc.stderr.read().strip()}")


class Event:
    """One line of `focusd-testdevice read`."""

    def __init__(self, line):
        m = re.match(r"^(resync )?(\S+) (\S+) (-?\d+) kernel=(\d+\.\d+) recv=(\d+\.\d+)$", line)
        if not m:
            raise Fail(f"reader printed an unexpected line: {line!r}")
        self.resync = bool(m.group(1))
        self.type, self.code, self.value = m.group(2), m.group(3), int(m.group(4))
        self.kernel, self.recv = float(m.group(5)), float(m.group(6))

    def __repr__(self):
        return f"{self.type} {self.code} {self.value}"


class Reader:
    """The bare libevdev reader on one node: `focusd-testdevice read NODE`."""

    def __init__(self, node, grab=False):
        args = [TESTDEVICE, "read", node] + (["--grab"] if grab else [])
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.out = Lines(self.proc.stdout, f"reader {node}")
        self.out.expect(r"^ready ", timeout=20)

    def events(self, until, timeout=10, syn=False):
        """Events (without SYN_REPORT unless `syn`) until `until(event)` is true (included)."""
        found = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.out.next(max(0.01, deadline - time.monotonic()))
            if line is None or line == "gone":
                raise Fail(f"reader: device gone before the expected events; got {found}")
            e = Event(line)
            if syn or not (e.type == "EV_SYN" and e.code == "SYN_REPORT"):
                found.append(e)
            if until(e):
                return found

    def stop(self):
        self.proc.kill()
        self.proc.wait()


def sysfs_input(node):
    """The sysfs directory of the input device behind /dev/input/eventN."""
    return f"/sys/class/input/{os.path.basename(node)}/device"


def read_text(path):
    with open(path) as f:
        return f.read().strip()


def udev_properties(node):
    """`udevadm info --query=property` of a node, as a dict."""
    subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)
    out = subprocess.run(["udevadm", "info", "--query=property", f"--name={node}"],
                         capture_output=True, text=True)
    check(out.returncode == 0, f"udevadm info {node}: {out.stderr.strip()}")
    return dict(line.split("=", 1) for line in out.stdout.splitlines() if "=" in line)


def test_devices():
    """The /dev/input nodes of the simulated devices now present."""
    nodes = []
    for entry in os.listdir("/sys/class/input"):
        if entry.startswith("event"):
            try:
                if read_text(f"/sys/class/input/{entry}/device/name").startswith(NAME_PREFIX):
                    nodes.append("/dev/input/" + entry)
            except OSError:
                pass
    return sorted(nodes)


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise Fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]
