#!/usr/bin/env python3
"""An exploring walk, not a check: the chromium adapter on any pages (nobody wrote them for focusd).
For each URL: the first focus and how long it took, then a run of commands; after each, where
focusd and the DOM hold focus, whether they agree, whether the focused element is on screen, and
the adapter's warnings at the end. A summary names the pages where something looked wrong.

  Tests/Adapters/walk_pages.py --build-dir .build/debug [--script down*12,right*4,...] URL...

Pages used (docs/adapter-decisions.md, "Pages from Debian's own packages"): python3.11-doc,
debian-reference-en, libjs-jquery-ui-docs (its demos need /usr/share/nodejs/require.js, which
node-requirejs installs as /usr/share/nodejs/requirejs/require.js: link it).
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Session, wait_for  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--build-dir", required=True)
parser.add_argument("--script", default="down*12,right*4,up*6,left*3,next*6,previous*3,down*20,up*25")
parser.add_argument("urls", nargs="+")
args = parser.parse_args()

commands = []
for part in args.script.split(","):
    name, _, count = part.partition("*")
    commands += [name] * int(count or 1)

DESCRIBE = """(() => { const e = document.activeElement; if (!e || e === document.body) return null;
  const r = e.getBoundingClientRect();
  return {tag: e.tagName.toLowerCase(), text: (e.innerText || e.value || e.getAttribute('aria-label') || '').slice(0, 40).replace(/\\s+/g, ' '),
          x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height),
          vw: innerWidth, vh: innerHeight, sy: Math.round(scrollY)}; })()"""


def probe(url):
    session = Session(args.build_dir)
    problems = []
    try:
        page, focusd, scene = session.start_page(url)

        def held():
            return focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"].get("focused")

        def dom():
            return page.agent("__focusd.focus('\\u0000none').active")
        start = time.time()
        wait_for(lambda: dom() and dom() == held(), 8)
        size = len(json.dumps(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]))
        print(f"  first focus {held()} dom {dom()} after {time.time() - start:.2f}s, scene {size} bytes")
        previous = held()
        for step, name in enumerate(commands):
            reply = focusd.call("io.focusd.Focus.Send", {"command": name, "scene": scene})
            agreed = wait_for(lambda: dom() == held(), 3)
            info = page.eval(DESCRIBE)
            now = held()
            line = f"  {step:2} {name:8} -> {now}{' (stayed)' if now == previous else ''} consumed={reply['consumed']} dom={dom()} {json.dumps(info)}"
            if not agreed:
                problems.append(f"step {step} {name}: DOM {dom()} != focusd {held()}")
                line += "  <-- DOM DISAGREES"
            if info and (info["y"] + info["h"] <= 0 or info["y"] >= info["vh"] or info["x"] + info["w"] <= 0 or info["x"] >= info["vw"]):
                problems.append(f"step {step} {name}: focused {now} off screen {info}")
                line += "  <-- OFF SCREEN"
            previous = now
            print(line)
        if session.adapter.poll() is not None:
            problems.append(f"adapter exited {session.adapter.returncode}")
        warnings = [l for l in session.adapter_log().splitlines() if l.startswith("focusd-adapter") and (" warning " in l or " error " in l or "critical" in l)]
        for w in warnings[:10]:
            print("  adapter:", w[:300])
        problems += [f"adapter log: {w[:200]}" for w in warnings[:3]]
    except Exception as error:  # noqa: BLE001
        problems.append(f"exception {type(error).__name__}: {error}")
        print(session.adapter_log()[-2000:])
    finally:
        session.stop()
    return problems


summary = {}
for url in args.urls:
    print(f"== {url}")
    summary[url] = probe(url)
print("\n== summary")
for url, problems in summary.items():
    print(f"{'ok  ' if not problems else 'PROB'} {url}")
    for p in problems:
        print("     ", p)
