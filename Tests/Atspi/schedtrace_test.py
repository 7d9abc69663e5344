#!/usr/bin/python3
"""schedtrace.py's reading of ftrace's text: which thread waited for a CPU, how long, and the
union of a sample's waits (`/usr/bin/python3 Tests/Atspi/schedtrace_test.py`)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from schedtrace import SchedRecord  # noqa: E402


def switch(t, cpu, prev, prev_state, nxt, prev_comm="busy", next_comm="busy"):
    return (f"          {prev_comm}-{prev}     [{cpu:03d}] d..2. {t:.6f}: sched_switch: prev_comm={prev_comm} prev_pid={prev} "
            f"prev_prio=120 prev_state={prev_state} ==> next_comm={next_comm} next_pid={nxt} next_prio=120")


def waking(t, cpu, waker, pid, comm="x", waker_comm="busy"):
    return f"          {waker_comm}-{waker}       [{cpu:03d}] d.h3. {t:.6f}: sched_waking: comm={comm} pid={pid} prio=120 target_cpu={cpu:03d}"


# Thread 101 (the adapter) and 102 (the bus daemon) are roles; 900 and 901 are another
# session's busy loops, on CPU 0 and CPU 1.
ROLES = {"adapter": {101}, "a11y-bus": {102}}
TRACE = [
    switch(9.990, 0, 0, "R", 900, prev_comm="swapper/0"),
    switch(9.990, 1, 0, "R", 901, prev_comm="swapper/1"),
    waking(10.000, 0, 900, 101, "focusd-adapter"),
    waking(10.050, 1, 901, 102, "dbus-daemon"),
    waking(10.060, 1, 901, 777, "other"),  # not a role: its wait is not the sample's
    switch(10.080, 0, 900, "R+", 101, next_comm="focusd-adapter"),
    switch(10.081, 0, 101, "S", 900, prev_comm="focusd-adapter"),
    switch(10.090, 1, 901, "R", 102, next_comm="dbus-daemon"),
    switch(10.092, 1, 102, "D", 777, prev_comm="dbus-daemon", next_comm="other"),
    waking(10.097, 1, 777, 102, "dbus-daemon"),
    switch(10.098, 1, 777, "S", 102, prev_comm="other", next_comm="dbus-daemon"),
    switch(10.099, 1, 102, "S", 901, prev_comm="dbus-daemon"),
    # A name with dashes and digits, as ftrace prints it.
    "   memfd:sealed-91-19425   [001] d..2. 10.200000: sched_switch: prev_comm=memfd:sealed-91 prev_pid=19425 prev_prio=120 "
    "prev_state=S ==> next_comm=busy next_pid=901 next_prio=120",
]


# A sample's path: the bench (100) wakes the bus daemon (102) at 10.000, which waits 40 ms for a
# CPU, is preempted once for 0.3 ms, wakes the application (103), whose reply wakes the bus again
# (8 ms wait), which wakes the bench (9 ms wait). Thread 104 waits for a CPU all along, off the path.
CHAIN_ROLES = {"bench": {100}, "a11y-bus": {102}, "app": {103}, "Xvfb": {104}}
CHAIN = [
    switch(9.990, 0, 0, "R", 900, prev_comm="swapper/0"),
    switch(9.999, 1, 901, "R", 100, next_comm="python3"),
    waking(10.000, 1, 100, 102, "dbus-daemon", waker_comm="python3"),
    waking(10.000, 1, 100, 104, "Xvfb", waker_comm="python3"),
    switch(10.0005, 1, 100, "S", 901, prev_comm="python3"),
    switch(10.040, 0, 900, "R", 102, next_comm="dbus-daemon"),
    switch(10.0405, 0, 102, "R+", 900, prev_comm="dbus-daemon"),
    switch(10.0408, 0, 900, "R", 102, next_comm="dbus-daemon"),
    waking(10.041, 0, 102, 103, "python3", waker_comm="dbus-daemon"),
    switch(10.041, 0, 102, "S", 103, prev_comm="dbus-daemon", next_comm="python3"),
    waking(10.042, 0, 103, 102, "dbus-daemon", waker_comm="python3"),
    switch(10.0421, 0, 103, "S", 900, prev_comm="python3"),
    switch(10.050, 0, 900, "R", 102, next_comm="dbus-daemon"),
    waking(10.051, 0, 102, 100, "python3", waker_comm="dbus-daemon"),
    switch(10.0511, 0, 102, "S", 900, prev_comm="dbus-daemon"),
    switch(10.060, 1, 901, "R", 100, next_comm="python3"),
    switch(10.060, 0, 900, "R", 104, next_comm="Xvfb"),
]


class SchedRecordTests(unittest.TestCase):
    def setUp(self):
        self.record = SchedRecord(ROLES, TRACE)

    def test_every_line_of_ftrace_text_is_read_names_with_dashes_too(self):
        self.assertEqual(len(self.record.events), len(TRACE))
        self.assertEqual(self.record.events[-1][2], 19425)

    def test_a_woken_thread_waits_for_a_cpu_until_it_is_switched_in(self):
        waits = self.record.window(9.995, 10.1)["waits"]
        self.assertEqual(len(waits["adapter"]), 1)
        start, end = waits["adapter"][0]
        self.assertAlmostEqual(end - start, 0.080, places=6)

    def test_a_wait_after_uninterruptible_sleep_is_counted_apart_from_the_sleep(self):
        window = self.record.window(9.995, 10.1)
        self.assertAlmostEqual(window["blocked"]["a11y-bus"], 0.005, places=6)
        self.assertAlmostEqual(sum(b - a for a, b in window["waits"]["a11y-bus"]), 0.040 + 0.001, places=6)

    def test_a_samples_path_is_walked_back_through_its_wake_ups_with_each_hops_wait(self):
        record = SchedRecord(CHAIN_ROLES, CHAIN)
        hops = [(name, round((b - a) * 1000, 3)) for name, _, a, b in record.path(10.000, 10.061, 100)]
        self.assertEqual(hops, [("bench-100", 9.0), ("a11y-bus-102", 8.0), ("app-103", 0.0), ("a11y-bus-102", 0.3),
                                ("a11y-bus-102", 40.0)])

    def test_only_the_waits_on_the_path_count_not_a_process_waiting_beside_it(self):
        record = SchedRecord(CHAIN_ROLES, CHAIN)
        self.assertAlmostEqual(record.path_wait(10.000, 10.061, 100), 0.0573, places=6)
        self.assertAlmostEqual(sum(b - a for a, b in record.window(10.000, 10.061)["waits"]["Xvfb"]), 0.060, places=6)

    def test_a_path_is_cut_at_the_samples_start(self):
        record = SchedRecord(CHAIN_ROLES, CHAIN)
        self.assertAlmostEqual(record.path_wait(10.030, 10.061, 100), 0.0273, places=6)

    def test_a_switch_in_missing_from_the_record_is_bounded_by_the_threads_first_system_call(self):
        # ftrace was seen to miss a few switch-ins on a CPU leaving idle: the bus daemon's second
        # run has none, only its recvmsg at 10.0505.
        lines = [line for line in CHAIN if not line.startswith(switch(10.050, 0, 900, "R", 102)[:60])]
        self.assertEqual(len(lines), len(CHAIN) - 1)
        lines.append("     dbus-daemon-102     [000] ..... 10.050500: sys_enter: NR 47 (d, 7ffd1234, 0, 0, 0, 0)")
        record = SchedRecord(CHAIN_ROLES, lines)
        self.assertAlmostEqual(record.path_wait(10.000, 10.061, 100), 0.0578, places=6)
        self.assertAlmostEqual(sum(b - a for a, b in record.window(10.000, 10.061)["waits"]["a11y-bus"]), 0.0488, places=6)

    def test_time_on_a_cpu_is_counted_per_role(self):
        ran = self.record.window(9.995, 10.1)["ran"]
        self.assertAlmostEqual(ran["adapter"], 0.001, places=6)
        self.assertAlmostEqual(ran["a11y-bus"], 0.003, places=6)

    def test_the_tasks_that_held_the_cpus_while_a_role_waited_are_named(self):
        occupants = self.record.window(9.995, 10.1)["occupants"]
        self.assertGreater(occupants.get("busy", 0), 0.07)


if __name__ == "__main__":
    unittest.main()
