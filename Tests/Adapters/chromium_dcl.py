#!/usr/bin/env python3
"""Does the adapter slow the page's own load? Navigation → DOMContentLoaded start (the page's own
Navigation Timing) of the benchmark's page of 5,000 candidates, navigated to from the page of
1,000, in a bare headless Chromium and in one the adapter drives (its agent injected with
addScriptToEvaluateOnNewDocument, its binding, domains and observers), the two alternated
session by session, the same browser flags.

  Tests/Adapters/chromium_dcl.py [--adapter PATH] [--focusd PATH] [--sessions 4] [--navigations 5]

Prints each navigation's figures, then the medians per kind, with the load beside each session.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session, page_url, wait_for  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--build-dir", default=os.path.join(ROOT, ".build/debug"))
parser.add_argument("--adapter")
parser.add_argument("--focusd")
parser.add_argument("--sessions", type=int, default=4, help="sessions of each kind, alternated")
parser.add_argument("--navigations", type=int, default=5, help="navigations to the 5,000-candidate page per session")
args = parser.parse_args()


def navigations(page):
    """Navigation → DOMContentLoaded start and end (ms) of each navigation to the page of 5,000."""
    figures = []
    for _ in range(args.navigations):
        page.send("Page.navigate", url=page_url("many.html", "?n=1000"))
        wait_for(lambda: page.eval("document.readyState === 'complete' && document.querySelectorAll('button').length === 1000"), 10)
        time.sleep(0.7)  # the old page quiet (the agent's idle-time check runs 500 ms after it settles)
        page.send("Page.navigate", url=page_url("many.html", "?n=5000"))
        timing = wait_for(lambda: page.eval("""(t => t && t.domContentLoadedEventEnd && location.search === '?n=5000'
            && [t.domContentLoadedEventStart, t.domContentLoadedEventEnd])(performance.getEntriesByType('navigation')[0])"""), 10)
        figures.append(timing)
    return figures


def bare_session():
    session = Session(args.build_dir, focusd=args.focusd)
    browser = subprocess.Popen(session.browser_command(page_url("many.html", "?n=1000")),
                               stdout=session.log("chromium.log"), stderr=subprocess.STDOUT)
    session.others.append(browser)
    port_file = os.path.join(session.profile, "DevToolsActivePort")
    if not wait_for(lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1, 30):
        sys.exit("chromium did not start")
    session.port = int(open(port_file).read().split("\n")[0])
    return session, session.page()


def adapter_session():
    session = Session(args.build_dir, focusd=args.focusd)
    page, _, _ = session.start_page(page_url("many.html", "?n=1000"), adapter=args.adapter)
    return session, page


results = {"bare": [], "adapter": []}
for index in range(args.sessions * 2):
    kind = "bare" if index % 2 == 0 else "adapter"
    session, page = (bare_session if kind == "bare" else adapter_session)()
    try:
        page.send("Page.enable")
        load = open("/proc/loadavg").read().split()[0]
        figures = navigations(page)
        results[kind] += figures
        print(f"{kind:8} load {load}: DOMContentLoaded start " + ", ".join(f"{start:.1f}" for start, _ in figures)
              + " ms; end " + ", ".join(f"{end:.1f}" for _, end in figures) + " ms")
    finally:
        session.stop()
        shutil.rmtree(session.work, ignore_errors=True)
for kind, figures in results.items():
    starts = [start for start, _ in figures]
    print(f"{kind}: navigation → DOMContentLoaded start median {statistics.median(starts):.1f} ms "
          f"(min {min(starts):.1f}, max {max(starts):.1f}, {len(starts)} navigations)")
