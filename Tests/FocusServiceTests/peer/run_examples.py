#!/usr/bin/env python3
"""Runs the reference examples through a live focusd socket with the Python `varlink` package.

An independent peer: the interface is fetched from the daemon and parsed by the package's own
IDL parser, calls and replies are filtered by it. For each example file it opens a Monitor
connection and a call connection, installs the example's scene under a fresh name (owned by the
call connection), performs the steps and checks `expect`, `emits` and `emitsNothing` (format:
the examples' README). One line per example; exit status 1 when any example failed.

usage: run_examples.py SOCKET EXAMPLE.json...
"""
import json
import os
import socket
import sys
import time

import varlink

FOCUS = "io.focusd.Focus"


def read_value(binding):
    """The read value of a BindingState: isTrue for a Bool binding, value otherwise."""
    if binding.get("isTrue") is not None:
        return binding["isTrue"]
    return binding.get("value")


class MonitorReader:
    """The Monitor stream of one scene, read with timeouts (the package's generator cannot time out)."""

    def __init__(self, client, scene):
        self.handler = client.open(FOCUS)
        self.method = self.handler._interface.get_method("Monitor")
        self.stream = self.handler.Monitor(scene=scene, _more=True)
        first = next(self.stream)  # the first reply carries the state
        if not first or "state" not in first:
            raise AssertionError(f"the first Monitor reply has no state: {first}")
        self.revision = first["state"]["revision"]

    def _next(self, timeout):
        self.handler._connection.settimeout(timeout)
        try:
            message, _ = self.handler._next_varlink_message()
        except (socket.timeout, BlockingIOError):
            return None
        return self.handler._interface.filter_params("client.reply", self.method.out_type, False, message, None)

    def collect(self, until_revision, expected_kinds, patience=2.0):
        """Events queued for the monitor: read until an event carrying `until_revision` (when the
        revision moved) and the expected kinds have been seen, then drain what is left."""
        events = []
        deadline = time.monotonic() + patience

        def satisfied():
            if until_revision is not None and not any(e.get("revision") == until_revision for e in events):
                return False
            return contains_in_order([e["kind"] for e in events], expected_kinds)

        while not satisfied():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            reply = self._next(left)
            if reply is None:
                break
            if "event" in reply and reply["event"] is not None:
                events.append(reply["event"])
        # whatever else was queued with them
        while True:
            reply = self._next(0.05)
            if reply is None:
                break
            if "event" in reply and reply["event"] is not None:
                events.append(reply["event"])
        return events

    def close(self):
        self.handler.close()


def contains_in_order(kinds, expected):
    position = 0
    for kind in kinds:
        if position < len(expected) and kind == expected[position]:
            position += 1
    return position == len(expected)


def check_expect(expect, reply, state, problems, where):
    def differ(name, got, want):
        problems.append(f"{where}: {name} is {json.dumps(got)}, expected {json.dumps(want)}")

    for key, want in expect.items():
        if key in ("focused", "accessibilityFocused", "focusEffectEnabled"):
            got = state.get(key)
            if got != want:
                differ(key, got, want)
        elif key == "path":
            if state.get("path") != want:
                differ(key, state.get("path"), want)
        elif key in ("focusedValues", "sceneValues"):
            got = state.get(key) or {}
            if got != want:
                differ(key, got, want)
        elif key in ("bindings", "accessibilityBindings"):
            read = {b["name"]: read_value(b) for b in state.get(key) or []}
            for name, value in want.items():
                if name not in read:
                    problems.append(f"{where}: {key} has no binding named {name} (has {sorted(read)})")
                elif read[name] != value:
                    differ(f"{key}.{name}", read[name], value)
        elif key in ("moved", "consumed"):
            if reply is None or key not in reply:
                problems.append(f"{where}: the reply has no `{key}`")
            elif reply[key] != want:
                differ(key, reply[key], want)
        elif key == "warns":
            if reply is None or "warnings" not in reply:
                problems.append(f"{where}: the reply has no `warnings`")
            elif bool(reply["warnings"]) != want:
                differ("warnings", reply["warnings"], "some" if want else [])
        else:
            problems.append(f"{where}: unknown expect key {key}")


def run_example(address, path, serial):
    with open(path) as file:
        example = json.load(file)
    scene = dict(example["scene"])
    name = f"{scene['name']}-{os.getpid()}-{serial}"
    scene["name"] = name
    client = varlink.Client(address=address)
    calls = client.open(FOCUS)
    problems = []
    monitor = None
    try:
        set_reply = calls.SetScene(scene=scene)
        state = set_reply["state"]
        if state.get("scene") != name:
            problems.append(f"SetScene: the state names scene {state.get('scene')}, expected {name}")
        monitor = MonitorReader(client, name)
        for index, step in enumerate(example["steps"], start=1):
            where = f"step {index}" + (f" ({step['call']})" if "call" in step else "")
            before = state["revision"]
            reply = None
            if "call" in step:
                params = dict(step.get("params", {}))
                params["scene"] = name
                try:
                    reply = getattr(calls, step["call"])(**params)
                except varlink.VarlinkError as error:
                    problems.append(f"{where}: error {error.error()} {error.parameters()}")
                    break
                state = reply["state"] if reply and "state" in reply else calls.GetState(scene=name)["state"]
            else:
                state = calls.GetState(scene=name)["state"]
            check_expect(step.get("expect", {}), reply, state, problems, where)

            after = state["revision"]
            emits = step.get("emits", [])
            moved_revision = after if after != before else None
            events = monitor.collect(moved_revision, emits, patience=2.0 if (emits or moved_revision) else 0.1)
            kinds = [e["kind"] for e in events]
            if not contains_in_order(kinds, emits):
                problems.append(f"{where}: monitor got {kinds}, expected {emits} in this order")
            if moved_revision is not None and not any(e.get("revision") == after for e in events):
                problems.append(f"{where}: revision {before} -> {after} but no event carries {after} (got {kinds})")
            for event in events:
                if event.get("scene") != name:
                    problems.append(f"{where}: event of scene {event.get('scene')}")
            if step.get("emitsNothing"):
                if events:
                    problems.append(f"{where}: expected no event, got {kinds}")
                if after != before:
                    problems.append(f"{where}: expected the revision unchanged, it went {before} -> {after}")
        calls.RemoveScene(scene=name)
    except Exception as error:  # a broken connection or a bad reply is this example's failure
        problems.append(f"{type(error).__name__}: {error}")
    finally:
        if monitor:
            monitor.close()
        calls.close()
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    address = "unix:" + sys.argv[1]
    failed = 0
    for serial, path in enumerate(sys.argv[2:]):
        problems = run_example(address, path, serial)
        label = os.path.basename(path)
        if problems:
            failed += 1
            print(f"FAIL {label}: " + "; ".join(problems))
        else:
            print(f"ok   {label}")
    print(f"{len(sys.argv) - 2 - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
