"""Helpers for the real-kernel scenarios: simulated devices, the bare reader, udev, assertions.

Scenarios run in the QEMU guest with $RK_BIN (the host's swift build directory) and, for the
focusd ones, $RK_FOCUSD (the daemon's path). See Tests/RealKernel/README.md.
"""

import json
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
# The deployment build of focusd, for the scenarios marked `# focusd-build: release` (empty: it
# did not build, and they run FOCUSD).
FOCUSD_RELEASE = os.environ.get("RK_FOCUSD_RELEASE", "")
# The same build of the test tool, for the relay floor that 78 puts next to the release focusd
# (empty: TESTDEVICE's build runs it).
TESTDEVICE_RELEASE = os.environ.get("RK_TESTDEVICE_RELEASE", "")
# Not "focusd...": focusd never lists devices whose name starts with "focusd" (its own virtual
# devices; InputDevices' ownDevicePrefix).
NAME_PREFIX = "test-focusd "


class Fail(Exception):
    """A failed expectation; the message is the scenario's result line."""


def check(condition, message):
    if not condition:
        raise Fail(message)


# The daemons a scenario started (their logs are printed when it fails).
STARTED = []


def scenario(body):
    """Runs `body()`, prints `ok: <what it returned>` or `FAIL: <why>`, exits 0 or 1.

    On a failure the end of each focusd log comes first (the last line stays the reason).
    """
    try:
        summary = body()
    except Exception as e:
        for daemon in STARTED:
            print(f"--- focusd log (end) ---\n{daemon.log_tail(40, sep=chr(10))}", flush=True)
        if not isinstance(e, Fail):
            import traceback
            traceback.print_exc(file=sys.stdout)
        print(f"FAIL: {e}", flush=True)
        sys.exit(1)
    print(f"ok: {summary}", flush=True)
    sys.exit(0)


class Lines:
    """A pipe read line by line by a thread, so callers can wait with a timeout.

    `last_time` is the monotonic time the last line returned by `next` was read from the pipe.
    """

    def __init__(self, stream, label):
        self.queue = queue.Queue()
        self.label = label
        self.seen = []
        self.last_time = None
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        for line in stream:
            self.queue.put((time.monotonic(), line.rstrip("\n")))
        self.queue.put((time.monotonic(), None))

    def next(self, timeout):
        """The next line, or None at end of stream; Fail after `timeout` seconds."""
        try:
            self.last_time, line = self.queue.get(timeout=timeout)
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
            e.client = self.out.last_time  # when this process got the line (monotonic)
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


def nice_harness(value=10):
    """Runs every thread of this process at nice `value` (os.nice changes the calling thread alone
    on Linux: the pipe and Monitor threads started before it kept nice 0 and took the CPU from
    the processes being timed). Threads and processes started afterwards inherit it."""
    for tid in os.listdir("/proc/self/task"):
        try:
            os.setpriority(os.PRIO_PROCESS, int(tid), value)
        except OSError:
            pass  # a thread that ended meanwhile


class SchedTrace:
    """The guest kernel's own record of where a latency went (`RK_TRACE=1 Tests/RealKernel/run.sh`):
    ftrace on CLOCK_MONOTONIC (the readers' clock) of sched_wakeup, sched_switch and the read,
    write, poll and epoll_wait system calls, from `__init__` to `stop`."""

    ROOT = "/sys/kernel/tracing/"
    LINE = re.compile(r"\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)")

    def __init__(self):
        subprocess.run(["mount", "-t", "tracefs", "nodev", "/sys/kernel/tracing"], check=False, capture_output=True)
        self._set("trace_clock", "mono")
        self._set("buffer_size_kb", "30000")
        for event in ("sched/sched_wakeup", "sched/sched_switch"):
            self._set(f"events/{event}/enable", "1")
        for event in ("raw_syscalls/sys_enter", "raw_syscalls/sys_exit"):
            self._set(f"events/{event}/filter", "id == 0 || id == 1 || id == 7 || id == 232 || id == 271")
            self._set(f"events/{event}/enable", "1")
        self._set("trace", "")
        self._set("tracing_on", "1")
        self.events = []

    def _set(self, name, value):
        with open(self.ROOT + name, "w") as f:
            f.write(value)

    def stop(self):
        """Stops tracing; `events` is then [(time, tid, event, text)] in time order."""
        self._set("tracing_on", "0")
        with open(self.ROOT + "trace") as f:
            for line in f:
                m = self.LINE.match(line)
                if m:
                    self.events.append((float(m.group(4)), int(m.group(2)), m.group(5), m.group(6)))

    def first(self, after, before, tid, event, text=""):
        """Time of the first `event` of thread `tid` (or, for sched_wakeup / sched_switch, waking
        or switching to it) within [after, before] whose text starts with `text`; None if none."""
        for t, who, name, rest in self.events:
            if t < after or t > before or name != event:
                continue
            if event == "sched_wakeup" and f" pid={tid} " in rest or event == "sched_switch" and f"next_pid={tid} " in rest \
                    or event.startswith("sys_") and who == tid and rest.startswith(text):
                return t
        return None

    def last(self, after, before, tid, event, text=""):
        found = None
        for t, who, name, rest in self.events:
            if after <= t <= before and name == event and who == tid and rest.startswith(text):
                found = t
        return found


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


# --- focusd (the scenarios marked `# needs: focusd`) --------------------------------------------

class Focusd:
    """The daemon under test: `focusd --demo --socket S [ARGS]`, its log in /tmp/focusd.log.

    `as_user` runs it unprivileged through setpriv (root opens any node whatever its mode).
    """

    def __init__(self, *args, demo=True, as_user=None, release=False):
        check(FOCUSD, "no focusd binary (RK_FOCUSD is empty)")
        binary = FOCUSD_RELEASE if release and FOCUSD_RELEASE else FOCUSD
        # Which build runs (swift's bin path ends in debug or release), for figures that depend on it.
        self.build = os.path.basename(os.path.dirname(binary))
        self.socket = "/run/focusd-test/focusd.sock"
        os.makedirs(os.path.dirname(self.socket), exist_ok=True)
        self.log = open("/tmp/focusd.log", "w")
        prefix = []
        if as_user:
            os.chmod(os.path.dirname(self.socket), 0o777)
            import pwd
            user = pwd.getpwnam(as_user)
            prefix = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups"]
        argv = prefix + [binary] + (["--demo"] if demo else []) + ["--socket", self.socket, "--log-level", "debug"] + list(args)
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT)
        STARTED.append(self)
        # The socket file exists from bind(); calls work once focusd listens and serves, and the
        # demo scene is installed right after the server starts.
        wait_until(lambda: self._serving(demo) or self.proc.poll() is not None, 60, "focusd to serve its socket")
        check(self.proc.poll() is None, f"focusd exited {self.proc.returncode} at start: {self.log_tail()}")

    def _serving(self, demo):
        if not os.path.exists(self.socket):
            return False
        try:
            if demo:
                self.call("GetState", scene="demo")
            else:
                self.devices()
            return True
        except Exception:
            return False

    def log_tail(self, n=10, sep=" | "):
        self.log.flush()
        with open("/tmp/focusd.log") as f:
            return sep.join(f.read().splitlines()[-n:])

    def connection(self, interface="io.focusd.Focus"):
        import varlink  # varlink 31.0.0 from PyPI, installed by run.sh into the build directory
        return varlink.Client(address=f"unix:{self.socket}").open(interface)

    def call(self, method, interface="io.focusd.Focus", **parameters):
        with self.connection(interface) as c:
            return getattr(c, method)(**parameters)

    def devices(self):
        """io.focusd.Input.ListDevices, as a list of dicts."""
        return self.call("ListDevices", interface="io.focusd.Input")["devices"]

    def device_for(self, node, timeout=20):
        """The listed device on `node`, once focusd opened it (no `problem`)."""
        found = {}

        def listed():
            for d in self.devices():
                if d["node"] == node and not d.get("problem"):
                    found["d"] = d
                    return True
            return False

        wait_until(listed, timeout, f"focusd to open {node}")
        return found["d"]

    def fds(self):
        """The targets of focusd's open file descriptors (/proc/PID/fd)."""
        out = []
        for fd in os.listdir(f"/proc/{self.proc.pid}/fd"):
            try:
                out.append(os.readlink(f"/proc/{self.proc.pid}/fd/{fd}"))
            except OSError:
                pass
        return out

    def stop(self):
        """SIGTERM; focusd must exit 0 within 10 s."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Fail("focusd did not exit within 10 s of SIGTERM")
        check(self.proc.returncode == 0, f"focusd exited {self.proc.returncode} on SIGTERM: {self.log_tail()}")


class CompiledMonitor:
    """A Monitor stream read by a compiled client, `focusd-testdevice monitor SOCKET`: each
    reply comes with the CLOCK_MONOTONIC time that process read it, so the figure leaves out
    this Python process (its thread, JSON parsing) and measures focusd and the socket. `focusd`
    is anything with a `.socket` path (a `Relay` too)."""

    def __init__(self, focusd, interface="io.focusd.Focus"):
        self.proc = subprocess.Popen([TESTDEVICE, "monitor", focusd.socket, interface], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out = Lines(self.proc.stdout, "compiled monitor")
        self.first = self._next(20)[1]

    def _next(self, timeout):
        line = self.out.next(timeout)
        check(line is not None, f"compiled monitor: stream ended ({self.proc.stderr.read() if self.proc.poll() is not None else ''})")
        stamp, _, text = line.partition(" ")
        return float(stamp[len("recv="):]), json.loads(text).get("parameters", {})

    def expect(self, predicate, timeout=5, what="an event"):
        """The first (receive time, parameters) after the ones already consumed that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while True:
            t, reply = self._next(max(0.01, deadline - time.monotonic()))
            if predicate(reply):
                return t, reply

    def stop(self):
        self.proc.kill()
        self.proc.wait()


class Relay:
    """The relay floor, `focusd-testdevice relay NODE SOCKET --hops H --size BYTES`, with its
    compiled client (`CompiledMonitor`, the client scenario 78 times focusd with): each key event
    of NODE reaches the client as one `size`-byte message after H + 1 wake-ups (reader thread,
    with 2 hops a writer thread, then the client), with none of focusd's work in between.
    `client.expect` gives (receive time, {"kernel": "SEC.USEC", "code": N, "value": V, ...})."""

    def __init__(self, node, hops, size):
        self.socket = f"/run/focusd-test/relay-{hops}.sock"  # CompiledMonitor connects to .socket
        os.makedirs(os.path.dirname(self.socket), exist_ok=True)
        # The relay in focusd's build: a debug build's per-event instructions are not the structure's.
        binary = TESTDEVICE_RELEASE or TESTDEVICE
        self.build = os.path.basename(os.path.dirname(binary))
        self.proc = subprocess.Popen([binary, "relay", node, self.socket, "--hops", str(hops), "--size", str(size)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.out = Lines(self.proc.stdout, f"relay --hops {hops}")
        try:
            self.out.expect(r"^listening ", timeout=20)
        except Fail:
            raise Fail(f"relay --hops {hops} did not start: {self.proc.stderr.read().strip() if self.proc.poll() is not None else ''}")
        self.client = CompiledMonitor(self)

    def stop(self):
        self.client.stop()
        self.proc.kill()
        self.proc.wait()


class Monitor:
    """A Monitor stream (io.focusd.Focus by default, or io.focusd.Input) read by a thread.

    Each reply is queued with the monotonic time it was received, so the scenario can compare
    it with kernel timestamps (the reader's are CLOCK_MONOTONIC too).
    """

    def __init__(self, focusd, interface="io.focusd.Focus", **parameters):
        self.queue = queue.Queue()
        self.received = []
        conn = focusd.connection(interface)
        stream = conn.Monitor(_more=True, **parameters)
        self.first = next(stream)  # the state (Focus) or the device list (Input)
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream):
        try:
            for reply in stream:
                self.queue.put((time.monotonic(), reply))
        except (OSError, ValueError):
            pass  # focusd stopped or the connection closed: the stream ends (None below)
        finally:
            self.queue.put((time.monotonic(), None))

    def expect(self, predicate, timeout=5, what="an event"):
        """The first (time, reply) after the ones already consumed that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                t, reply = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise Fail(f"monitor: no {what} within {timeout} s (last: {self.received[-3:]})")
            check(reply is not None, f"monitor: stream ended while waiting for {what}")
            self.received.append(reply)
            if predicate(reply):
                return t, reply

    def none(self, predicate, seconds, what):
        """Fails if a reply satisfying `predicate` arrives within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                _, reply = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                return
            if reply is None:
                return
            self.received.append(reply)
            check(not predicate(reply), f"monitor: unexpected {what}: {reply}")

    def drain(self):
        while not self.queue.empty():
            self.received.append(self.queue.get()[1])


def is_move(direction=None):
    """A Focus Monitor reply that is a focus change caused by a device (in `direction`)."""
    def predicate(reply):
        e = reply.get("event") or {}
        cause = e.get("cause") or {}
        if e.get("kind") != "focus" or cause.get("device") is None:
            return False
        return direction is None or cause.get("direction") == direction
    return predicate


def is_command(command, phase=None, device=None):
    """An Input Monitor reply carrying `command` (in `phase`, from `device`)."""
    def predicate(reply):
        c = reply.get("command") or {}
        return (c.get("command") == command and (phase is None or c.get("phase") == phase)
                and (device is None or c.get("device") == device))
    return predicate


# model -> (script lines that should move focus, the direction or None for sequential/crown),
# the input each class maps to by default (input.md, section 3).
CLASS_INPUTS = {
    "keyboard": (["press KEY_RIGHT", "sleep 150", "press KEY_LEFT"], None),
    "remote": (["ir KEY_RIGHT", "sleep 150", "ir KEY_LEFT"], None),
    "xbox360": (["abs ABS_HAT0X 1", "syn", "sleep 50", "abs ABS_HAT0X 0", "syn", "sleep 150",
                 "abs ABS_HAT0X -1", "syn", "sleep 50", "abs ABS_HAT0X 0", "syn"], None),
    "powermate": (["rel REL_DIAL 4", "syn", "sleep 300", "rel REL_DIAL -4", "syn"], None),
    "surface-dial": (["rel REL_DIAL 100", "syn", "sleep 300", "rel REL_DIAL -100", "syn"], None),
    "surface-dial-hid": (["rel REL_DIAL 100", "syn", "sleep 300", "rel REL_DIAL -100", "syn"], None),
    "mouse": (["rel REL_WHEEL 1", "rel REL_WHEEL_HI_RES 120", "syn", "sleep 300",
               "rel REL_WHEEL -1", "rel REL_WHEEL_HI_RES -120", "syn"], None),
    "touchpad": (["swipe right", "sleep 300", "swipe left"], None),
}

# model -> more inputs that must move focus too: (label, script, the direction of the move it must
# cause first). The pad's left stick past its threshold (50 % beyond `flat`) and back to rest, right
# then left: the first move must be `right` (the D-pad's way back before it was `left`).
MORE_INPUTS = {
    "xbox360": [("left stick", ["abs ABS_X 30000", "syn", "sleep 50", "abs ABS_X 0", "syn", "sleep 150",
                                "abs ABS_X -30000", "syn", "sleep 50", "abs ABS_X 0", "syn"], "right")],
}

# model -> the io.focusd.Input class focusd must give it (input.md, section 2).
EXPECTED_CLASS = {
    "keyboard": "keyboard", "remote": "remote", "xbox360": "gamepad", "powermate": "rotary",
    "surface-dial": "rotary", "surface-dial-hid": "rotary", "mouse": "pointer", "touchpad": "touchpad",
}


def each_class_moves_focus(focusd, models):
    """For each model: focusd lists it with the right class, and its input moves focus.

    Each script goes one way then back, so whatever the demo scene's starting focus, at least
    one of the two moves is possible: at least one focus event caused by this device must come.
    """
    monitor = Monitor(focusd)
    summary = []
    for model in models:
        dev = Device(model)
        listed = focusd.device_for(dev.node)
        check(listed["class"] == EXPECTED_CLASS[model],
              f"{model}: focusd classifies it as {listed['class']}, expected {EXPECTED_CLASS[model]}")
        script, _ = CLASS_INPUTS[model]
        kinds = []
        for label, lines, direction in [(model, script, None)] + MORE_INPUTS.get(model, []):
            dev.send(*lines)
            _, reply = monitor.expect(lambda r: is_move(direction)(r) and r["event"]["cause"]["device"] == listed["id"],
                                      timeout=10, what=f"focus move caused by {model} ({label})")
            dev.sync()
            kinds.append(reply["event"]["cause"]["kind"] + ("" if label == model else f"({label})"))
        dev.close()
        summary.append(f"{model}:{'+'.join(kinds)}")
    return " ".join(summary)


# --- udev/70-focusd.rules (scenarios 65, 66; Tests/RealKernel/udev-rules-scenario.md) -----------

REPO = os.environ.get("RK_REPO", "")
RULES = "/etc/udev/rules.d/70-focusd.rules"
IGNORE_RULES = "/etc/udev/rules.d/69-focusd-test-ignore.rules"
# An integrator's ignore rules: one by name, one by vendor:product (the `mouse` model is 046d:c08b;
# the `keyboard` model, 046d:c31c, must not match).
IGNORE_NAME = NAME_PREFIX + "ignore-me keyboard"
IGNORE_TEXT = (
    f'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{{name}}=="{NAME_PREFIX}ignore-me*", ENV{{FOCUSD_IGNORE}}="1"\n'
    'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="046d", ATTRS{id/product}=="c08b", ENV{FOCUSD_IGNORE}="1"\n'
)


def run_checked(argv, what):
    out = subprocess.run(argv, capture_output=True, text=True)
    check(out.returncode == 0, f"{what}: exit {out.returncode}: {(out.stderr or out.stdout).strip()}")
    return out.stdout


class FocusdRules:
    """Installs the repository's udev rules and user as an install would; `remove()` undoes the rules.

    udevd is shared with the other `udev: required` scenarios: always call `remove()`.
    """

    def __init__(self, extra=""):
        import grp
        run_checked(["systemd-sysusers", os.path.join(REPO, "udev/focusd.sysusers")], "systemd-sysusers")
        self.focusd_gid = grp.getgrnam("focusd").gr_gid
        self.input_gid = grp.getgrnam("input").gr_gid
        check("focusd" in grp.getgrnam("input").gr_mem, "user focusd is not a member of group input")
        with open(os.path.join(REPO, "udev/70-focusd.rules")) as src, open(RULES, "w") as dst:
            dst.write(src.read())
        with open(IGNORE_RULES, "w") as f:
            f.write(IGNORE_TEXT + extra)
        run_checked(["udevadm", "control", "--reload"], "udevadm control --reload")

    def remove(self):
        for path in (RULES, IGNORE_RULES):
            try:
                os.remove(path)
            except FileNotFoundError:
                pass
        subprocess.run(["udevadm", "control", "--reload"], check=False)
        subprocess.run(["udevadm", "trigger", "--subsystem-match=input", "--action=change", "--settle"], check=False)


def sibling_nodes(node):
    """Every event node of the device (HID, USB interface...) `node` belongs to, `node` included."""
    hid = os.path.realpath(f"/sys/class/input/{os.path.basename(node)}/device/device")
    found = []
    for entry in os.listdir("/sys/class/input"):
        if entry.startswith("event") and os.path.realpath(f"/sys/class/input/{entry}/device/device") == hid:
            found.append("/dev/input/" + entry)
    return sorted(found)
