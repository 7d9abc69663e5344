# summary: the input thread's own tests on real uinput devices (RealDeviceTests, RealTouchpadTests, RealUdevTests in Tests/InputDevicesTests): frames, SYN_DROPPED, grabs and libinput gestures reach the delegate as the commands the real path makes
# udev: required
# needs: tests
# timeout: 240
import os
import re
import subprocess

from realkernel import check, scenario

SUITES = "RealDeviceTests|RealTouchpadTests|RealUdevTests"


def body():
    bundle = os.path.join(os.environ["RK_BIN"], "focusdPackageTests.xctest")
    proc = subprocess.run(
        [bundle, "--testing-library", "swift-testing", "--filter", SUITES],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=220)
    print(proc.stdout, flush=True)
    out = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout)
    failed = sorted(set(re.findall(r"Test \"([^\"]+)\" failed", out)))
    check(not failed, f"failed: {'; '.join(failed)}")
    check(proc.returncode == 0, f"the test binary exited {proc.returncode}")
    # The suites are enabled only where /dev/uinput is writable and udevd runs: all of them
    # must have run here, none skipped.
    passed = re.findall(r"Suite \"([^\"]+)\" passed", out)
    check(not re.search(r"skipped", out, re.IGNORECASE), "a suite or test was skipped")
    check(len(passed) == 3, f"expected 3 suites to pass, saw {passed}")
    tests = re.search(r"Test run with (\d+) tests? .*passed", out)
    return f"{tests.group(1) if tests else '?'} tests of {', '.join(passed)} passed"


scenario(body)
