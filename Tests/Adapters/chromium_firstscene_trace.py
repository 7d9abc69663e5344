#!/usr/bin/env python3
"""Where a first scene's time goes: navigations from a page of 1,000 candidates to one of 5,000,
each printed as times from `Page.navigate` (ms): the page's own DOMContentLoaded start and end (its
end holds the agent's whole read, which runs in its own DOMContentLoaded listener), the `scene`
event reaching this script, and the time after DOMContentLoaded's end (what the browser, the
adapter and focusd add after the agent sent the scene). With --strace DIR, the adapter's and
focusd's reads, writes and worker hand-offs of each navigation are written there (strace -f -ttt).
Works with any adapter (an agent without `stats().lastScene` too), so two can be alternated:

  Tests/Adapters/chromium_firstscene_trace.py --adapter A --focusd F [--runs 5] [--strace DIR]
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session, Varlink, drain_events, page_url, scene_arrival, wait_for  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--build-dir", default=os.path.join(ROOT, ".build/debug"))
parser.add_argument("--adapter")
parser.add_argument("--focusd")
parser.add_argument("--runs", type=int, default=1)
parser.add_argument("--strace", help="a directory for strace's output of the adapter and focusd")
args = parser.parse_args()

session = Session(args.build_dir, focusd=args.focusd)
try:
    page, focusd, scene = session.start_page(page_url("many.html", "?n=1000"), adapter=args.adapter)
    monitor = Varlink(session.socket)
    monitor.send("io.focusd.Focus.Monitor", {"scene": scene}, more=True)
    monitor.receive()
    for run in range(args.runs):
        size = 5000 if run % 2 == 0 else 1000
        tracers = []
        if args.strace:
            os.makedirs(args.strace, exist_ok=True)
            for name, pid in (("adapter", session.adapter.pid), ("focusd", session.focusd.pid)):
                tracers.append(subprocess.Popen(
                    ["timeout", "60", "strace", "-f", "-ttt", "-T", "-s", "0", "-e", "trace=read,write,writev,sendmsg,sendto,futex,poll,epoll_wait",
                     "-p", str(pid), "-o", os.path.join(args.strace, f"{name}-{run}.strace")], stderr=subprocess.DEVNULL))
            time.sleep(1.0)
        time.sleep(0.6)  # the old page's idle-time check, then its events drained
        drain_events(monitor)
        sent = time.time()
        page.send("Page.navigate", url=page_url("many.html", f"?n={size}"))
        at = scene_arrival(monitor, focusd, scene, f"b{size - 1}", clock=time.time, timeout=15)
        for tracer in tracers:
            tracer.send_signal(2)
            tracer.wait()
        timing = wait_for(lambda: page.eval("""(t => t && t.domContentLoadedEventEnd && [performance.timeOrigin,
            t.domContentLoadedEventStart, t.domContentLoadedEventEnd])(performance.getEntriesByType('navigation')[0])"""), 10)
        origin = timing[0] - sent * 1000
        start, end, event = origin + timing[1], origin + timing[2], (at - sent) * 1000
        # The agent's own marks, where it has them: its read, and the binding call's return (the
        # part after it is the browser's transfer, the adapter, focusd and this script's read).
        marks = page.agent("window.__focusd && __focusd.stats && __focusd.stats().lastScene") or {}
        parts = (f"agent's read {marks['read'] - marks['layout']:.1f} ms, after the binding call {event - origin - marks['sent']:.1f} ms, "
                 if marks.get("sent") is not None else "")
        print(f"{size} candidates: DOMContentLoaded start {start:.1f} ms, end {end:.1f} ms, scene event {event:.1f} ms, "
              f"after DOMContentLoaded's end {event - end:.1f} ms; {parts}navigation sent at {sent:.6f} (epoch s); "
              f"load {open('/proc/loadavg').read().split()[0]}")
finally:
    session.stop()
