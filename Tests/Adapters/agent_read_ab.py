"""The page agent's first read of a page, agent against agent, in a bare headless chromium (no
adapter, no focusd): each agent file given is injected as the adapter injects page.js, with a
stand-in binding that keeps what the agent sends; the page is loaded --runs times per agent,
alternated. Prints per agent:
- the wall time of the first read (`__focusd.stats().lastScene`: read − layout, the bench's
  "agent's read" line);
- the CPU time of the renderer's main thread per navigation (/proc schedstat: the page's own
  parse and layout, the same for every agent, plus the agent's read and text), and per whole
  read once the page is loaded (ten `__focusd.profile()` calls: read, observe, structure, text);
and checks that every agent sends the same first-scene text (byte for byte) as the first one.
With --profile, the DevTools Profiler over each first read (console.profile around `read()`),
self time by function and by line, each sample weighted by its duration.

  git show main:Sources/ChromiumAdapter/Page/page.js > /tmp/main-page.js
  python3 Tests/Adapters/agent_read_ab.py /tmp/main-page.js Sources/ChromiumAdapter/Page/page.js --runs 20

An agent given as PATH@isolated runs in an isolated world (as the adapter runs it: its binding and
`__focusd` there), PATH alone in the page's main world: the same file in both measures what the
world costs.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import AGENT_WORLD, Page, page_url, wait_for  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("agents", nargs="+", help="page.js files to compare (the first is the reference)")
parser.add_argument("--runs", type=int, default=8, help="navigations per agent")
parser.add_argument("--page", default="many.html")
parser.add_argument("--query", default="?n=5000")
parser.add_argument("--profile", action="store_true")
parser.add_argument("--nice", type=int, default=-15, help="the browser's nice (root only for < 0): less of the other load")
args = parser.parse_args()

READ = "const root = read();"
CAPTURE = "window.__focusdNotify = (text) => { (window.__sent ??= []).push(text); };"


def agent_source(path):
    source = open(path.removesuffix("@isolated")).read()
    if args.profile:
        if source.count(READ) < 1:
            sys.exit(f"{path}: no '{READ}' to profile around")
        # The first occurrence is flush's: the first scene's read.
        source = source.replace(READ, f'console.profile("read"); {READ} console.profileEnd("read");', 1)
    return source


def descendants(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack += children.get(pid, [])
    return found


def renderers(browser):
    found = []
    for pid in descendants(browser.pid):
        try:
            if b"--type=renderer" in open(f"/proc/{pid}/cmdline", "rb").read():
                found.append(pid)
        except OSError:
            pass
    return found


def main_thread_cpu_ms(pids):
    total = 0
    for pid in pids:
        try:
            total += int(open(f"/proc/{pid}/task/{pid}/schedstat").read().split()[0])
        except (OSError, ValueError):
            pass
    return total / 1e6


def main():
    profile_dir = tempfile.mkdtemp()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("chromium is missing: scripts/deps test installs it")
    browser = subprocess.Popen(["nice", "-n", str(args.nice), chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                "--remote-debugging-port=0", f"--user-data-dir={profile_dir}", "--window-size=1280,720",
                                "--force-device-scale-factor=1", "--no-first-run", "--disable-background-timer-throttling",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile_dir, "DevToolsActivePort")
        if not wait_for(lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1, 30):
            sys.exit("chromium did not start")
        port = int(open(port_file).read().split("\n")[0])
        target = wait_for(lambda: [t for t in json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
                                   if t["type"] == "page"], 10)[0]
        page = Page(target["webSocketDebuggerUrl"], target["id"])
        page.send("Page.enable")
        sources = [agent_source(path) for path in args.agents]
        reads = {path: [] for path in args.agents}
        per_navigation = {path: [] for path in args.agents}
        per_read = {path: [] for path in args.agents}
        texts = {}
        ticks = {}
        for _ in range(args.runs):
            for path, source in zip(args.agents, sources):
                world = {"worldName": AGENT_WORLD} if path.endswith("@isolated") else {}
                evaluate = page.agent if world else page.eval
                scripts = [page.send("Page.addScriptToEvaluateOnNewDocument", source=text, **world)["identifier"] for text in (CAPTURE, source)]
                if args.profile:
                    page.send("Profiler.enable")
                    page.send("Profiler.setSamplingInterval", interval=50)
                page.events.clear()
                before = renderers(browser)
                cpu = main_thread_cpu_ms(before)
                page.send("Page.navigate", url=page_url(args.page, args.query))
                page.next_event("Page.loadEventFired", 30)
                if not wait_for(lambda: evaluate("!!(window.__sent && window.__sent.length)"), 10):
                    sys.exit(f"{path}: the agent sent no scene")
                after = renderers(browser)
                if after == before:  # (a navigation that changed renderer is not counted)
                    per_navigation[path].append(main_thread_cpu_ms(after) - cpu)
                cpu = main_thread_cpu_ms(after)
                evaluate("for (let i = 0; i < 10; i++) __focusd.profile(); 0")
                per_read[path].append((main_thread_cpu_ms(after) - cpu) / 10)
                scene = json.loads(evaluate("JSON.stringify(__focusd.stats().lastScene)"))
                reads[path].append(scene["read"] - scene["layout"])
                texts.setdefault(path, evaluate("window.__sent[0]"))
                if args.profile:
                    profile = page.next_event("Profiler.consoleProfileFinished", 10)["params"]["profile"]
                    collect(profile, path, ticks)
                    page.send("Profiler.disable")
                for identifier in scripts:
                    page.send("Page.removeScriptToEvaluateOnNewDocument", identifier=identifier)
        load = open("/proc/loadavg").read().split()[0]
        for path in args.agents:
            values = reads[path]
            print(f"{path}: first read (wall) median {statistics.median(values):.1f} ms, min {min(values):.1f} ms; "
                  f"renderer main thread CPU per navigation median {statistics.median(per_navigation[path]):.1f} ms "
                  f"({len(per_navigation[path])} navigations), per whole read once loaded {statistics.median(per_read[path]):.1f} ms; "
                  f"load {load}")
        reference = texts[args.agents[0]]
        for path in args.agents[1:]:
            same = texts[path] == reference
            print(f"{path}: {'the same first-scene text' if same else 'a DIFFERENT first-scene text'} as {args.agents[0]} "
                  f"({len(texts[path])} bytes)")
        if args.profile:
            report(ticks)
    finally:
        browser.terminate()
        browser.wait()
        shutil.rmtree(profile_dir, ignore_errors=True)


def collect(profile, path, ticks):
    """Self time (ms) by function and by line, each sample weighted by its duration."""
    duration = {}
    for sample, delta in zip(profile["samples"], profile["timeDeltas"][1:] + [0]):
        duration[sample] = duration.get(sample, 0) + delta / 1000
    for node in profile["nodes"]:
        frame = node["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        own = duration.get(node["id"], 0)
        ticks[(path, "function", name)] = ticks.get((path, "function", name), 0) + own
        hits = sum(tick["ticks"] for tick in node.get("positionTicks", []))
        for tick in node.get("positionTicks", []):
            key = (path, "line", f"{name} line {tick['line']}")
            ticks[key] = ticks.get(key, 0) + own * tick["ticks"] / hits


def report(ticks):
    for path in args.agents:
        for kind, count in (("function", 25), ("line", 30)):
            rows = sorted(((ms, key[2]) for key, ms in ticks.items() if key[0] == path and key[1] == kind), reverse=True)
            print(f"== {path}: self time by {kind}, ms per first read")
            for ms, name in rows[:count]:
                print(f"  {ms / args.runs:7.2f}  {name}")


if __name__ == "__main__":
    main()
