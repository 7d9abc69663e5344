#!/usr/bin/env python3
"""Runs the README's commands as they are written.

The README marks its runnable code blocks with an HTML comment on the line before the fence:
  <!-- readme-test: quick-start -->  `scripts/demo` is started (it builds and runs focusd with the
                                      demo scene) and stays up for the blocks below; `scripts/test`
                                      is the command .ci/run runs, which this test checks (it cannot
                                      run the suite it is part of);
  <!-- readme-test: commands -->     each line runs with bash against that focusd and must exit 0
                                      with some output, within 30 s;
  <!-- readme-test: streams -->      each line is a stream: under a terminal, it must print at
                                      least one line within 10 s and still be running (then stopped).
Lines run exactly as written (the part before a `#` comment); the environment gives them the
source tree's .build/release first on PATH (where `focusctl` is, as the README says) and
FOCUSD_SOCKET, a socket in a temporary directory, so a focusd already running is left alone.
At the end focusd gets SIGTERM and must exit 0 within 10 s.
Usage: python3 Tests/Docs/readme_test.py [--readme FILE]"""
import argparse
import os
import pathlib
import pty
import re
import select
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time

repo = pathlib.Path(__file__).resolve().parent.parent.parent
KINDS = ("quick-start", "commands", "streams")


def marked_blocks(text):
    """(kind, [command lines]) for each marked block, in order."""
    blocks = []
    for match in re.finditer(r"<!-- readme-test: ([\w-]+) -->\n```\w*\n(.*?)\n```", text, re.S):
        kind, body = match.group(1), match.group(2)
        if kind not in KINDS:
            sys.exit(f"readme_test: unknown block kind '{kind}' (known: {', '.join(KINDS)})")
        lines = []
        for line in body.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                lines.append(command)
        blocks.append((kind, lines))
    return blocks


def answers(path):
    try:
        with socket.socket(socket.AF_UNIX) as probe:
            probe.connect(path)
        return True
    except OSError:
        return False


class Failures:
    def __init__(self):
        self.count = 0

    def check(self, ok, what, detail=""):
        print(("ok: " if ok else "FAIL: ") + what + ("" if ok or not detail else f"\n{detail}"), flush=True)
        self.count += 0 if ok else 1


def start_demo(command, environment, socket_path, failures):
    log = open(pathlib.Path(environment["FOCUSD_TEST_DIR"]) / "demo.log", "w+")
    process = subprocess.Popen(["bash", "-c", command], cwd=repo, env=environment, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    # scripts/demo builds first (a release build), so the socket may take minutes to appear.
    deadline = time.monotonic() + 1500
    while time.monotonic() < deadline and process.poll() is None and not answers(socket_path):
        time.sleep(0.1)
    up = answers(socket_path)
    log.seek(0)
    failures.check(up, f"`{command}` serves focusd at {socket_path}", log.read()[-3000:])
    return process if up else None


def run_command(command, environment, failures):
    try:
        result = subprocess.run(["bash", "-c", command], cwd=repo, env=environment, capture_output=True,
                                text=True, timeout=30)
    except subprocess.TimeoutExpired:
        failures.check(False, f"`{command}` finished within 30 s")
        return
    output = result.stdout.strip()
    first = output.splitlines()[0] if output else ""
    failures.check(result.returncode == 0 and output != "",
                   f"`{command}` exits 0 with output ({len(output.splitlines())} lines; first: {first[:100]})",
                   f"exit {result.returncode}\nstdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-2000:]}")


def run_stream(command, environment, failures, trigger):
    """A stream under a pseudo-terminal: a first line within 10 s, still running afterwards."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(["bash", "-c", command], cwd=repo, env=environment, stdin=follower,
                               stdout=follower, stderr=follower, start_new_session=True)
    os.close(follower)
    received = b""
    deadline = time.monotonic() + 10
    triggered = False
    while time.monotonic() < deadline and b"\n" not in received:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                received += os.read(leader, 4096)
            except OSError:
                break
        elif not triggered and time.monotonic() > deadline - 8:
            trigger()  # a focus move, so an event arrives even if the stream sends nothing first
            triggered = True
    alive = process.poll() is None
    if alive:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    os.close(leader)
    first = received.decode(errors="replace").splitlines()[0] if received else ""
    failures.check(alive and b"\n" in received, f"`{command}` streams (first line: {first[:100]})",
                   f"running after 10 s: {alive}; output: {received[-2000:]!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", default=str(repo / "README.md"))
    arguments = parser.parse_args()
    blocks = marked_blocks(pathlib.Path(arguments.readme).read_text())
    kinds = [kind for kind, _ in blocks]
    if sorted(set(kinds)) != sorted(KINDS):
        sys.exit(f"readme_test: the README must mark a block of each kind {KINDS}; found {kinds}")
    failures = Failures()
    work = tempfile.mkdtemp(prefix="readme-test-")
    environment = dict(os.environ)
    environment["PATH"] = f"{repo}/.build/release:{environment['PATH']}"
    environment["FOCUSD_SOCKET"] = socket_path = f"{work}/focusd.sock"
    environment["FOCUSD_TEST_DIR"] = work
    environment.setdefault("TERM", "xterm")
    daemon = None
    try:
        for kind, lines in blocks:
            for command in lines:
                if kind == "quick-start":
                    if command.startswith("scripts/demo"):
                        daemon = start_demo(command, environment, socket_path, failures)
                    elif command == "scripts/test":
                        ci = (repo / ".ci/run").read_text()
                        failures.check(re.search(r"^exec scripts/test\s*$", ci, re.M) is not None,
                                       "`scripts/test` is what .ci/run runs (CI runs it as written)")
                    else:
                        failures.check(False, f"quick start line `{command}`: this test does not know it")
                    continue
                if daemon is None:
                    failures.check(False, f"`{command}`: no focusd (the quick start's demo did not start)")
                    continue
                if kind == "commands":
                    run_command(command, environment, failures)
                else:
                    run_stream(command, environment, failures,
                               lambda: subprocess.run(["bash", "-c", "focusctl -q move left; focusctl -q move right"],
                                                      env=environment, cwd=repo, timeout=10))
    finally:
        if daemon is not None:
            os.killpg(daemon.pid, signal.SIGTERM)
            try:
                status = daemon.wait(timeout=10)
                failures.check(status == 0, f"focusd stops on SIGTERM with exit 0 (exit {status})")
            except subprocess.TimeoutExpired:
                os.killpg(daemon.pid, signal.SIGKILL)
                daemon.wait()
                failures.check(False, "focusd stops within 10 s of SIGTERM")
        subprocess.run(["rm", "-rf", work])
    if failures.count:
        print(f"readme_test: {failures.count} check(s) failed")
        return 1
    print(f"readme_test: every marked command of the README ran as written ({sum(len(l) for _, l in blocks)} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
