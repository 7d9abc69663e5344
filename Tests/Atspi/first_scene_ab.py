#!/usr/bin/python3
"""The first scene of the 2,000-button window, two or more focusd-adapter binaries alternated on
the same window (one Xvfb, session bus, accessibility bus, focusd and GTK 3 fixture): from each
adapter's exec to focusd's `scene` event on a Monitor stream, with the CPU time each process
spent meanwhile (the application, the accessibility bus daemon, X, the adapter, focusd). The
first round of each runs with --verbose and prints its calls by kind; it is not counted.

    /usr/bin/python3 Tests/Atspi/first_scene_ab.py [--build-dir .build/debug] ROUNDS ADAPTER...
"""
import json, os, socket, subprocess, sys, tempfile, time, statistics
import dbus
HERE = os.path.dirname(os.path.abspath(__file__))
argv = sys.argv[1:]
BUILD = os.path.join(HERE, "..", "..", ".build", "debug")
if argv[:1] == ["--build-dir"]:
    BUILD, argv = argv[1], argv[2:]
work = tempfile.mkdtemp(prefix="first-")
env = dict(os.environ)
for k in ["DBUS_SESSION_BUS_ADDRESS", "DISPLAY"]: env.pop(k, None)
env.update(GDK_BACKEND="x11", GTK_A11Y="atspi", NO_AT_BRIDGE="0", XDG_RUNTIME_DIR=work)
disp = ":" + next(str(n) for n in range(400, 600)
                  if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"))
procs = []
x = subprocess.Popen(["Xvfb", disp, "-noreset", "-screen", "0", "1280x800x24", "-nolisten", "tcp"], stderr=subprocess.DEVNULL); procs.append(x)
time.sleep(1)
env["DISPLAY"] = disp
d = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1", "--nopidfile"], stdout=subprocess.PIPE, env=env, text=True); procs.append(d)
env["DBUS_SESSION_BUS_ADDRESS"] = d.stdout.readline().strip()
session = dbus.bus.BusConnection(env["DBUS_SESSION_BUS_ADDRESS"])
addr = str(session.get_object("org.a11y.Bus", "/org/a11y/bus").GetAddress(dbus_interface="org.a11y.Bus"))
sock = os.path.join(work, "focusd.sock")
fd = subprocess.Popen([f"{BUILD}/focusd", "--no-devices", "--socket", sock], env=env, stderr=open(work + "/focusd.log", "w")); procs.append(fd)
def varlink(method, parameters=None):
    s = socket.socket(socket.AF_UNIX); s.connect(sock)
    s.sendall(json.dumps({"method": "io.focusd.Focus." + method, "parameters": parameters or {}}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        c = s.recv(1 << 16)
        if not c: break
        data += c
    return json.loads(data.rstrip(b"\0"))
time.sleep(1)
app = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "fixture_gtk3.py"), "--many", "2000"], env=env, stdout=subprocess.PIPE, text=True); procs.append(app)
app.stdout.readline(); time.sleep(1)
rounds = int(argv[0]); bins = argv[1:]
def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) * 1000 / os.sysconf("SC_CLK_TCK")
def a11y_daemon():
    """The accessibility bus's dbus-daemon: the one listening at this session's a11y address."""
    where = addr.split("path=", 1)[1].split(",", 1)[0]
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if where in open(f"/proc/{p}/cmdline").read():
                    return int(p)
            except OSError:
                pass
    raise SystemExit("no accessibility bus daemon found")
busd = a11y_daemon()
import atexit
atexit.register(lambda: [p.terminate() for p in reversed(procs) if p.poll() is None])
cpus = {b: [] for b in bins}
res = {b: [] for b in bins}
for r in range(rounds):
    for b in bins:
        c0 = (cpu(app.pid), cpu(busd), cpu(x.pid), cpu(fd.pid))
        mon = socket.socket(socket.AF_UNIX); mon.connect(sock)
        mon.sendall(json.dumps({"method": "io.focusd.Focus.Monitor", "parameters": {}, "more": True}).encode() + b"\0")
        time.sleep(0.05)
        t0 = time.perf_counter()
        a = subprocess.Popen([b, "atspi", "--socket", sock] + (["--verbose"] if r == 0 else []), env=env, stderr=open(work + f"/a{r}.log", "w"))
        buf = b""
        while b'"atspi:' not in buf:
            buf += mon.recv(1 << 20)
        ms = (time.perf_counter() - t0) * 1000
        c1 = (cpu(app.pid), cpu(busd), cpu(x.pid), cpu(a.pid), cpu(fd.pid))
        if r > 0: cpus[b].append((c1[0]-c0[0], c1[1]-c0[1], c1[2]-c0[2], c1[3], c1[4]-c0[3]))
        a.terminate(); a.wait(5); mon.close()
        if r > 0: res[b].append(ms)
        else:
            for line in open(work + f"/a{r}.log"):
                if "first scene of" in line: print(b, line.strip()[:400])
        while [n for n in varlink("ListScenes")["parameters"].get("scenes", []) if n.startswith("atspi:")]: time.sleep(0.01)
        time.sleep(0.3)
for b in bins:
    print(b, "median %.0f ms" % statistics.median(res[b]), "runs", " ".join("%.0f" % v for v in res[b]))
    print("   cpu ms app/busd/X/adapter/focusd medians", [statistics.median(c[i] for c in cpus[b]) for i in range(5)])
print("load", open("/proc/loadavg").read().strip())
for p in reversed(procs): p.terminate()
