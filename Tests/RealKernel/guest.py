"""The scenario runner inside the QEMU guest (PID 1's child after switch_root).

Runs every file of scenarios/ in the order: scenarios without udevd, then those that do not
care, then those that need udevd (so udevd starts once), each in its own session with its own
time limit, and writes one line per scenario to $RK_RESULTS/results.txt:

    pass NAME DETAILS | fail NAME DETAILS | pending NAME REASON

A scenario declares itself in `# key: value` comment lines at its top:

    # summary: what it checks, in one sentence
    # udev: none | any | required     (default any)
    # needs: focusd                   (pending until a focusd binary exists)
    # needs: tests                    (pending until the test binary exists: `swift build --build-tests`)
    # timeout: SECONDS                (default 60)
    # focusd-build: release           (run.sh builds a release focusd for it: RK_FOCUSD_RELEASE)

Its exit status decides pass (0) or fail; its last output line is the details. Its whole output
is in $RK_RESULTS/logs/NAME.log.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import time

RESULTS = os.environ["RK_RESULTS"]
HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "scenarios")
UDEVD = next(p for p in ("/usr/lib/systemd/systemd-udevd", "/lib/systemd/systemd-udevd") if os.path.exists(p))


def metadata(path):
    meta = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^#\s*(summary|udev|needs|timeout):\s*(.*?)\s*$", line)
            if m:
                meta[m.group(1)] = m.group(2)
            elif line.strip() and not line.startswith("#"):
                break
    return meta


class Udevd:
    """Starts and stops systemd-udevd; `running` is the current state."""

    def __init__(self):
        self.running = False

    def start(self):
        if self.running:
            return
        t = time.monotonic()
        subprocess.run([UDEVD, "--daemon"], check=True)
        # Devices created later get their own events; only the guest's existing input devices
        # need replaying (all of /sys takes ~20 s more under TCG).
        subprocess.run(["udevadm", "trigger", "--action=add", "--subsystem-match=input"], check=True)
        subprocess.run(["udevadm", "settle", "--timeout=60"], check=True)
        self.running = True
        print(f"guest: udevd started and settled in {time.monotonic() - t:.1f} s", flush=True)

    def stop(self):
        if not self.running:
            return
        subprocess.run(["udevadm", "control", "--exit"], check=False)
        # Without udevd there must be no trace of it: libudev users look at /run/udev.
        shutil.rmtree("/run/udev", ignore_errors=True)
        self.running = False
        print("guest: udevd stopped", flush=True)


def missing(meta):
    """What the scenario needs and this run lacks (it stays pending), or None."""
    needs = meta.get("needs")
    if needs == "focusd" and not os.environ.get("RK_FOCUSD"):
        return "focusd"
    if needs == "tests" and not os.path.exists(os.path.join(os.environ.get("RK_BIN", ""), "focusdPackageTests.xctest")):
        return "the test binary (swift build --build-tests)"
    return None


def run(path, meta, results):
    name = os.path.splitext(os.path.basename(path))[0]
    lacking = missing(meta)
    if lacking:
        results.write(f"pending {name} needs {lacking}: {meta.get('summary', '')}\n")
        return
    timeout = int(meta.get("timeout", "60"))
    interpreter = ["/usr/bin/python3"] if path.endswith(".py") else ["/bin/sh"]
    log_path = os.path.join(RESULTS, "logs", name + ".log")
    t = time.monotonic()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(interpreter + [path], stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True, cwd="/tmp")
        try:
            status = proc.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
            status = None
        # Whatever the scenario left behind (devices, readers, a daemon) goes with it.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    elapsed = time.monotonic() - t
    with open(log_path) as log:
        lines = [l.strip() for l in log if l.strip()]
    last = lines[-1] if lines else "(no output)"
    if timed_out:
        results.write(f"fail {name} timed out after {timeout} s; last output: {last}\n")
    elif status == 0:
        results.write(f"pass {name} {last} ({elapsed:.1f} s)\n")
    else:
        results.write(f"fail {name} exit {status}: {last} ({elapsed:.1f} s)\n")


def main():
    only = os.environ.get("RK_ONLY", "")
    paths = sorted(os.path.join(SCENARIOS, f) for f in os.listdir(SCENARIOS)
                   if f.endswith((".py", ".sh")) and (not only or re.search(only, f)))
    order = {"none": 0, "any": 1, "required": 2}
    plan = sorted(((order.get(metadata(p).get("udev", "any"), 1), p) for p in paths))
    udevd = Udevd()
    with open(os.path.join(RESULTS, "results.txt"), "w", buffering=1) as results:
        for _, path in plan:
            meta = metadata(path)
            pending = missing(meta) is not None
            want = meta.get("udev", "any")
            if not pending:
                if want == "required":
                    udevd.start()
                elif want == "none":
                    udevd.stop()
            t = time.monotonic()
            if not pending:
                print(f"guest: starting {os.path.basename(path)}", flush=True)
            run(path, meta, results)
            print(f"guest: {os.path.basename(path)} {time.monotonic() - t:.1f} s", flush=True)
            os.fsync(results.fileno())
    udevd.stop()
    with open(os.path.join(RESULTS, "done"), "w") as f:
        f.write(f"{time.monotonic():.1f}\n")


if __name__ == "__main__":
    sys.exit(main())
