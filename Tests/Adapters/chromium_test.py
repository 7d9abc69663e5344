#!/usr/bin/env python3
"""focusd-adapter chromium end to end: a real focusd, the real adapter launching a real headless
chromium, and pages with no focusd code in them. Each check reads which element holds DOM focus
over a SECOND DevTools connection to the same browser.

  Tests/Adapters/chromium_test.py [--build-dir .build/debug]

Prints one line per check and `N passed, N failed`; exits 1 when a check failed.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session, page_url, resident_kib, wait_for, wakeups  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--build-dir", default=os.path.join(ROOT, ".build/debug"))
args = parser.parse_args()
results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        results["passed"] += 1
        print(f"ok - {name}" + (f" ({detail})" if detail else ""))
    else:
        results["failed"] += 1
        print(f"FAILED - {name}" + (f": {detail}" if detail else ""))
    sys.stdout.flush()
    return condition


def node_ids(node):
    ids = [node["id"]]
    for child in node.get("children", []):
        ids += node_ids(child)
    return ids


def find(node, ident):
    if node["id"] == ident:
        return node
    for child in node.get("children", []):
        hit = find(child, ident)
        if hit:
            return hit
    return None


def keyboard_reaches(page, key):
    """Whether a native key press (Input.dispatchKeyEvent: trusted, as a real keyboard's) reaches
    a keydown listener the page added on its window."""
    page.eval("window.seen = []; if (!window.listening) { addEventListener('keydown', (e) => seen.push(e.key), true); window.listening = true; } true")
    codes = {"ArrowDown": 40, "ArrowLeft": 37, "Tab": 9, "Enter": 13, "a": 65}
    down = {"type": "keyDown", "text": key} if len(key) == 1 else {"type": "rawKeyDown"}
    page.send("Input.dispatchKeyEvent", key=key, code=key if len(key) > 1 else "Key" + key.upper(), windowsVirtualKeyCode=codes[key], **down)
    page.send("Input.dispatchKeyEvent", type="keyUp", key=key, code=key if len(key) > 1 else "Key" + key.upper(), windowsVirtualKeyCode=codes[key])
    return key in page.eval("seen")


def main(session):
    adapter = os.path.join(args.build_dir, "focusd-adapter")

    # --- Bad input: clear errors, before anything starts ----------------------------------------
    run = subprocess.run([adapter, "chromium", "--socket", session.socket, "--connect", "10.1.2.3:9222"],
                         capture_output=True, text=True, timeout=20)
    check("a non-loopback --connect endpoint is refused, naming why", run.returncode != 0 and "loopback" in run.stderr,
          run.stderr.strip()[:160])
    run = subprocess.run([adapter, "chromium", "--socket", session.socket, "--connect", "127.0.0.1:9"],
                         capture_output=True, text=True, timeout=20)
    check("--connect with no browser at the port fails with a clear error", run.returncode == 1 and "no browser" in run.stderr,
          run.stderr.strip()[:160])
    run = subprocess.run([adapter, "chromium", "--socket", session.socket, "--launch", "--", "/nonexistent/chromium"],
                         capture_output=True, text=True, timeout=20)
    check("--launch of a missing browser fails naming it", run.returncode == 1 and "/nonexistent/chromium" in run.stderr,
          run.stderr.strip()[:160])

    # --- A TV home screen -------------------------------------------------------------------------
    session.start_focusd()
    session.start_adapter(page_url("tv.html"))
    page = session.page()
    focusd = session.varlink()
    scene = page.scene_name()
    listed = wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes").get("active") == scene, 15)
    check("the page's scene is set and active, named chromium:TARGET", listed,
          json.dumps(focusd.call("io.focusd.Focus.ListScenes")))
    if not listed:
        print(session.adapter_log()[-3000:])
        return
    # The scene is active from the browser's first document on; the page's own scene follows
    # once it has loaded.
    expected = {"tab-home", "tab-settings", "r1-0", "r1-9", "r2-7", "footer"}
    wait_for(lambda: expected <= set(node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"])), 10)
    held = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]
    ids = set(node_ids(held["root"]))
    decoys = {"decoy-hidden", "decoy-invisible", "decoy-disabled", "decoy-negative", "decoy-inert", "decoy-empty",
              "decoy-fieldset", "decoy-nohref", "decoy-hidden-input", "decoy-role"}
    check("candidates: links, buttons, rail items, footer", expected <= ids, sorted(expected - ids))
    check("no decoy is a candidate (hidden, invisible, disabled, tabindex=-1, inert, empty, disabled fieldset, no href, hidden input, "
          "tabindex=-1 with role=constructor)",
          not (ids & decoys), sorted(ids & decoys))
    rail = find(held["root"], "rail1")
    check("an overflowing rail is a scroll container section that remembers focus",
          rail and rail.get("scroll", {}).get("axis") == "horizontal" and rail.get("section") and rail.get("remembersLastFocus"),
          json.dumps({k: v for k, v in (rail or {}).items() if k != "children"}))
    check("the rail's snap alignment and scroll-padding become its policy and margin",
          rail and rail["scroll"].get("policy") == "leading" and rail["scroll"].get("margin") == 40, json.dumps((rail or {}).get("scroll")))
    check("the nav is a section without a frame", find(held["root"], "tabs") and find(held["root"], "tabs").get("section")
          and "frame" not in find(held["root"], "tabs"))
    viewport = page.eval("[innerWidth, innerHeight]")
    # (A headless window settles its size after the first paint: the scene follows the resize.)
    wait_for(lambda: focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]["frame"]["height"]
             == page.eval("innerHeight"), 5)
    held = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]
    viewport = page.eval("[innerWidth, innerHeight]")
    check("the root is the viewport, a scroll container of the document",
          held["root"]["frame"] == {"x": 0, "y": 0, "width": viewport[0], "height": viewport[1]}
          and held["root"]["scroll"]["axis"] == "vertical" and held["root"]["scroll"]["contentHeight"] == page.eval(
              "document.scrollingElement.scrollHeight"),
          json.dumps({k: v for k, v in held["root"].items() if k != "children"}))

    def focus_agrees():
        dom, held = page.active(), focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"].get("focused")
        return dom if dom and dom == held else None
    first = wait_for(focus_agrees, 5)
    state = focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]
    check("with no DOM focus at load, focusd's default focus is applied to the page", first,
          f"DOM {page.active()}, focusd {state.get('focused')}")
    check("the applied focus shows :focus-visible", page.eval("document.activeElement.matches(':focus-visible')"))

    def command(name, expect, detents=None):
        parameters = {"command": name, "scene": scene}
        if detents is not None:
            parameters["detents"] = detents
        focusd.call("io.focusd.Focus.Send", parameters)
        if expect is None:
            return None
        return wait_for(lambda: page.active() == expect and expect, 5) or page.active()

    got = command("down", "r1-0")
    check("down: DOM focus moves into the first rail", got == "r1-0", got)
    for index in range(1, 5):
        got = command("right", f"r1-{index}")
    check("right ×4: DOM focus walks the rail", got == "r1-4", got)
    offset = focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["scroll"]
    rail_offset = next((o["offsetX"] for o in offset if o["node"] == "rail1"), None)
    page_offset = wait_for(lambda: page.eval("document.getElementById('rail1').scrollLeft") == rail_offset and rail_offset, 5)
    check("focusd's scroll of the rail is applied to the page", rail_offset and rail_offset > 0 and page_offset,
          f"focusd {rail_offset}, page {page.eval('document.getElementById(`rail1`).scrollLeft')}")
    check("applied focus did not scroll by itself (preventScroll): the page's offset is focusd's",
          page.eval("document.getElementById('rail1').scrollLeft") == rail_offset)
    got = command("down", None)
    got = wait_for(lambda: (page.active() or "").startswith("r2-") and page.active(), 5)
    check("down: into the second rail", got, got)
    got = command("up", "r1-4")
    check("up: back to the rail's remembered item", got == "r1-4", got)

    clicks = page.eval("clicks.length")
    focusd.call("io.focusd.Focus.Send", {"command": "select", "scene": scene})
    clicked = wait_for(lambda: page.eval(f"clicks.slice({clicks})"), 5)
    check("select: the focused element is clicked", clicked == ["r1-4"], json.dumps(clicked))

    focusd.call("io.focusd.Focus.Send", {"command": "playPause", "scene": scene})
    focusd.call("io.focusd.Focus.Send", {"command": "info", "scene": scene})
    keys = wait_for(lambda: (lambda k: k if "Info" in k else None)(page.eval("keys")), 5)
    check("other commands reach the page as UI Events key values", keys and keys[-2:] == ["MediaPlayPause", "Info"], json.dumps(keys))

    # The page moves focus itself.
    page.eval("document.getElementById('r2-5').focus()")
    told = wait_for(lambda: focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"] == "r2-5", 5)
    check("focus the page moves itself is reported to focusd", told,
          focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"])
    got = command("right", "r2-6")
    check("the next move starts where the page put focus", got == "r2-6", got)
    # The page moving focus again before focusd's answer to its last move has come back: focusd's
    # event for the older move must not take focus back from where the page put it since.
    yanked, previous = [], "r2-6"
    for round_ in range(40):
        now = page.active()
        if now != previous:
            yanked.append(f"round {round_}: {now} instead of {previous}")
        previous = f"r2-{4 + round_ % 3}"
        page.eval(f"document.getElementById('{previous}').focus(), true")
    time.sleep(0.3)
    state = focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"]
    check("a page moving focus quickly keeps every focus it set; focusd follows its last one",
          not yanked and page.active() == previous and state == previous, f"{yanked[:3]}, page {page.active()}, focusd {state}")

    # An idle page costs the adapter nothing.
    time.sleep(0.5)
    before = wakeups(session.adapter.pid)
    time.sleep(10)
    after = wakeups(session.adapter.pid)
    check("an idle page: 0 adapter wake-ups in 10 s", after - before == 0, f"{after - before} context switches")

    # A document with no candidate (focusd's focus: none), then one with candidates and no DOM
    # focus of its own: focusd's default focus is chosen and applied (a scene replaced while
    # nothing was focused keeps nothing focused in focusd until it is asked for its default).
    page.send("Page.navigate", url="about:blank")
    wait_for(lambda: not focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"].get("children"), 10)
    wait_for(lambda: focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"].get("focused") is None, 5)
    page.send("Page.navigate", url=page_url("tv.html"))
    focused = wait_for(lambda: page.active(), 5)
    check("after a document with no candidate, the next one gets focusd's default focus", focused and focused == focusd.call(
        "io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"], f"DOM {focused}")

    # Navigation to a new document: same scene name, content replaced, its focus applied.
    page.send("Page.navigate", url=page_url("list.html"))
    replaced = wait_for(lambda: "item-0" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 10)
    check("a new document replaces the scene's content under the same name", replaced)
    focused = wait_for(lambda: page.active(), 5)
    check("the new document gets focusd's default focus", focused and focused == focusd.call(
        "io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"], f"{focused}")

    # A list that grows, and loses its focused item.
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "item-3"})
    wait_for(lambda: page.active() == "item-3", 5)
    page.eval("addItems(6)")
    grown = wait_for(lambda: "item-9" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 5)
    check("items the page adds become candidates", grown)
    got = command("down", "item-4")
    check("focus moves onto an added item", got == "item-4", got)
    page.eval("removeItem('item-4')")
    recovered = wait_for(lambda: (lambda a: a if a and a != "item-4" else None)(page.active()), 5)
    state = focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]
    check("removing the focused item: focusd's recovery is applied to the page", recovered and recovered == state["focused"],
          f"DOM {recovered}, focusd {state['focused']}")

    # back with no dialog: BrowserBack, then history back (to the TV page).
    focusd.call("io.focusd.Focus.Send", {"command": "back", "scene": scene})
    back = wait_for(lambda: "r1-0" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 10)
    check("back without a dialog goes back in the page's history", back, page.eval("location.href"))

    # A modal dialog.
    page.send("Page.navigate", url=page_url("dialog.html"))
    wait_for(lambda: "open" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 10)
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "open"})
    wait_for(lambda: page.active() == "open", 5)
    focusd.call("io.focusd.Focus.Send", {"command": "select", "scene": scene})
    inside = wait_for(lambda: page.active() == "d-first", 5)
    check("a modal dialog opens and focus enters it as HTML says (its first control)", inside, page.active())
    told = wait_for(lambda: focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"] == "d-first", 5)
    check("focusd follows focus into the dialog", told)
    root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
    dialog = find(root, "settings")
    check("the dialog is a modal node and nothing outside it is a candidate",
          dialog and dialog.get("modal") and not ({"before", "open", "after"} & set(node_ids(root))), json.dumps(node_ids(root)))
    command("down", "d-second")
    got = command("down", "d-close")
    command("down", None)
    time.sleep(0.2)
    check("moves stay inside the dialog", page.active() == "d-close", page.active())
    focusd.call("io.focusd.Focus.Send", {"command": "back", "scene": scene})
    closed = wait_for(lambda: not page.eval("document.getElementById('settings').open"), 5)
    check("back closes the modal dialog (a cancel event first) instead of leaving the page",
          closed and page.eval("cancels") == 1 and page.eval("location.href").endswith("dialog.html"), f"cancels {page.eval('cancels')}")
    returned = wait_for(lambda: page.active() == "open", 5)
    check("focus returns to the opener, and focusd follows", returned and wait_for(
        lambda: focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"] == "open", 5),
          f"DOM {page.active()}, focusd {focusd.call('io.focusd.Focus.GetState', {'scene': scene})['state']['focused']}")

    # Dialogs of the page's own script (role=dialog divs): back is Escape inside them.
    for opener, box, first, how in (("open-scripted", "scripted", "s-ok", "an aria-modal dialog of the page's script (closing on keyCode 27)"),
                                    ("open-panel", "panel", "p-ok", "a non-modal role=dialog holding focus")):
        focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": opener})
        wait_for(lambda: page.active() == opener, 5)
        focusd.call("io.focusd.Focus.Send", {"command": "select", "scene": scene})
        opened = wait_for(lambda: page.active() == first and first in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 5)
        focusd.call("io.focusd.Focus.Send", {"command": "back", "scene": scene})
        closed = wait_for(lambda: page.eval(f"document.getElementById('{box}').hidden"), 5)
        check(f"back in {how}: Escape closes it, and the page stays",
              opened and closed and page.eval("escapes").count(box) == 1 and page.eval("location.href").endswith("dialog.html"),
              f"opened {opened}, escapes {page.eval('escapes')}, {page.eval('location.href')}")
        check("and focus is back on its opener, in focusd too", wait_for(lambda: page.active() == opener and focusd.call(
            "io.focusd.Focus.GetState", {"scene": scene})["state"].get("focused") == opener, 5), page.active())

    # Reading only what changed (the page agent's patches): what that path could get wrong.
    page.send("Page.navigate", url=page_url("mutate.html"))

    def scene_ids():
        return set(node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]))

    def focused():
        return focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"]
    wait_for(lambda: "s1" in scene_ids(), 10)
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "s1"})
    wait_for(lambda: page.active() == "s1", 5)
    page.eval("document.getElementById('wrap').classList.add('folded'), true")
    check("a class on an ancestor that hides a subtree: its candidates leave the scene",
          wait_for(lambda: not ({"s0", "s1", "s2"} & scene_ids()), 5), sorted(scene_ids()))
    moved = wait_for(lambda: (lambda a: a if a and a[0] != "s" and a == focused() else None)(page.active()), 5)
    check("and focus on the hidden element goes where focusd's recovery puts it, in the page too", moved, f"DOM {page.active()}, focusd {focused()}")
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "top"})
    wait_for(lambda: page.active() == "top", 5)
    got = command("down", "g0")
    check("down from above the hidden shelf skips it", got == "g0", got)
    page.eval("document.getElementById('wrap').classList.remove('folded'), true")
    wait_for(lambda: "s0" in scene_ids(), 5)
    got = command("up", "s0")
    check("the class removed: the shelf's candidates are back, and up reaches them", got == "s0", got)
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "t1"})
    wait_for(lambda: page.active() == "t1", 5)
    page.eval("document.getElementById('late').setAttribute('tabindex', '0'), true")
    wait_for(lambda: "late" in scene_ids(), 5)
    got = command("right", "late")
    check("an attribute making an element a candidate (tabindex=0): right reaches it", got == "late", got)
    before = page.eval("document.getElementById('t1').getBoundingClientRect().left")
    page.eval("document.getElementById('t0').textContent = 'A label long enough to push its neighbours along', true")
    expected = page.eval("(r => [r.left + scrollX, r.top + scrollY, r.width, r.height])(document.getElementById('t1').getBoundingClientRect())")

    def t1_frame():
        node = find(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"], "t1") or {}
        return [node.get("frame", {}).get(k) for k in ("x", "y", "width", "height")]
    pushed = wait_for(lambda: all(v is not None and abs(v - e) < 0.02 for v, e in zip(t1_frame(), expected)), 5)
    check("a text change that grows a button: the neighbour it pushes has its new frame in focusd",
          pushed and expected[0] > before + 50, f"focusd {t1_frame()}, page {expected}, before x {before}")
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "t0"})
    wait_for(lambda: page.active() == "t0", 5)
    got = command("right", "t1")
    check("and right from the grown button reaches the pushed one", got == "t1", got)
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "g1"})
    wait_for(lambda: page.active() == "g1", 5)
    page.eval("document.getElementById('group').remove(), true")
    recovered = wait_for(lambda: (lambda a: a if a and a not in ("g0", "g1") and a == focused() else None)(page.active()), 5)
    check("a removed subtree holding the focused element: its candidates go, focusd's recovery is applied to the page",
          recovered and not ({"g0", "g1"} & scene_ids()), f"DOM {page.active()}, focusd {focused()}")
    # Every document's first scene so far was read by the adapter, so the patches that followed it
    # were in sequence: the adapter never had to ask a page for its whole scene again.
    check("each new document's patches follow its first scene: no whole scene asked for again",
          "does not fit" not in session.adapter_log(), session.adapter_log()[-1500:])
    # A patch out of sequence (as if a message had been lost; here sent through the binding from
    # the agent's world): the adapter asks for the whole scene, and patches go on after it.
    wholes = page.agent("__focusd.stats().whole")
    page.agent("__focusdNotify(JSON.stringify({t: 'patch', seq: 1e6, frames: [['top', 0, 0, 1, 1]]})), true")
    resent = wait_for(lambda: page.agent("__focusd.stats().whole") > wholes, 5)
    page.eval("(b => { b.id = 'g9'; b.textContent = 'G9'; document.getElementById('bottom').before(b); })(document.createElement('button')), true")
    after = wait_for(lambda: "g9" in scene_ids(), 5)
    top = find(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"], "top") or {}
    check("a patch out of sequence: the adapter asks the page for the whole scene, ignores the patch, and patches go on after",
          resent and after and top.get("frame", {}).get("width", 1) > 1 and "does not fit" in session.adapter_log(),
          f"whole reads {wholes} → {page.agent('__focusd.stats().whole')}, g9 {after}, top {top.get('frame')}")
    time.sleep(1.0)  # the agent checks the scene it kept once the page is quiet (500 ms), at idle time
    stats = page.agent("__focusd.stats()")
    check("these changes went as patches, and the whole read at idle time found nothing to correct",
          stats["patches"] >= 6 and stats["corrections"] == 0 and stats["verified"] >= 1, json.dumps(stats))

    # A page changing itself at once after its first scene (its own DOMContentLoaded listener runs
    # right after the agent's read): the patch reaches the adapter before focusd has answered the
    # scene's SetScene (focusd builds 3,000 candidates in ~10 ms), is held while the adapter
    # reads the scene, and applied after it, in sequence: no whole scene asked for again.
    asked = session.adapter_log().count("does not fit")
    # (2,999 buttons in rows of 50: the late one fills the last row, so the document's size, and
    # with it the root, stays as it is and the change goes as a patch, not a whole scene.)
    page.send("Page.navigate", url=page_url("many.html", "?n=2999&late=1"))
    arrived = wait_for(lambda: {"late", "b2998"} <= scene_ids(), 10)
    stats = page.agent("__focusd.stats()")
    check("a patch the page sends before focusd has answered its new document's scene is applied after the scene, in order",
          arrived and session.adapter_log().count("does not fit") == asked and stats["whole"] - stats["verified"] == 1 and stats["patches"] >= 1,
          f"late {arrived}, {json.dumps(stats)}, {session.adapter_log()[-800:]}")

    # A web component's open shadow root and a same-origin frame (DOM focus read through both).
    page.send("Page.navigate", url=page_url("embed.html"))
    wait_for(lambda: {"s1", "f1"} <= set(node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"])), 10)
    root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
    check("candidates inside an open shadow root and a same-origin frame", {"top", "s0", "s1", "f0", "f1"} <= set(node_ids(root)),
          json.dumps(node_ids(root)))
    # The frame's button in the top document's coordinates: the iframe's box, border and padding
    # plus the button's box in the frame's own viewport.
    expected = page.eval("(() => { const f = document.getElementById('frame'), r = f.getBoundingClientRect(),"
                         " s = getComputedStyle(f), b = f.contentDocument.getElementById('f1').getBoundingClientRect();"
                         " return [r.left + f.clientLeft + parseFloat(s.paddingLeft) + b.left + scrollX,"
                         " r.top + f.clientTop + parseFloat(s.paddingTop) + b.top + scrollY, b.width, b.height]; })()")
    f1 = find(root, "f1")
    check("a frame's candidate is offset by the iframe's content box", f1 and all(
        abs(f1["frame"][k] - v) < 0.02 for k, v in zip(("x", "y", "width", "height"), expected)), f"{json.dumps(f1)} vs {expected}")

    def deep_active():
        return page.eval("deepActive()")
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "top"})
    wait_for(lambda: deep_active() == "top", 5)
    command("down", None)
    check("down: DOM focus moves into the web component's shadow root", wait_for(lambda: deep_active() == "s0", 5), deep_active())
    command("right", None)
    check("right: along the shadow root's buttons", wait_for(lambda: deep_active() == "s1", 5), deep_active())
    command("down", None)
    check("down: into the same-origin frame (its document holds focus)", wait_for(lambda: deep_active() in ("f0", "f1"), 5)
          and page.eval("document.getElementById('frame').contentDocument.hasFocus()"), deep_active())
    page.eval("document.getElementById('frame').contentDocument.getElementById('f0').focus(), true")
    told = wait_for(lambda: focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"] == "f0", 5)
    check("focus the frame's page moves itself is reported to focusd", told)
    page.eval("document.getElementById('row').grow(), true")
    grown = wait_for(lambda: "s2" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 5)
    check("a button added inside the shadow root becomes a candidate (the root's own mutations are observed)", grown)
    page.eval("(d => { const b = d.createElement('button'); b.id = 'f2'; b.textContent = 'f2'; d.body.append(b); })"
              "(document.getElementById('frame').contentDocument), true")
    grown = wait_for(lambda: "f2" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 5)
    check("a button added inside the frame becomes a candidate", grown)

    # Range and text inputs, a visually hidden checkbox, a roving tablist, data-focus attributes.
    page.send("Page.navigate", url=page_url("form.html"))
    wait_for(lambda: "volume" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]), 10)
    root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
    check("range and number inputs take activate and edit", find(root, "volume").get("interactions") == ["activate", "edit"]
          and find(root, "count").get("interactions") == ["activate", "edit"])
    check("a text input has role text, a search input role search",
          find(root, "name").get("role") == "text" and find(root, "find").get("role") == "search")
    label = page.eval("(r => [r.left, r.top, r.width, r.height])(document.getElementById('pretty-label').getBoundingClientRect())")
    pretty = find(root, "pretty")
    check("a visually hidden checkbox is represented by its label's box",
          pretty and [pretty["frame"][k] for k in ("x", "y", "width", "height")] == label, json.dumps(pretty))
    check("a roving tablist: every tab is a candidate, even at tabindex=-1",
          {"tab-a", "tab-b", "tab-c"} <= set(node_ids(root)) and find(root, "tabs").get("section"))
    check("data-focus attributes win: data-focusable=false takes a button out, data-focusable adds a div",
          not (find(root, "marked-out") or {}).get("focusable") and find(root, "marked-in") and find(root, "marked-in").get("focusable"),
          json.dumps([find(root, "marked-out"), find(root, "marked-in")]))
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "volume"})
    wait_for(lambda: page.active() == "volume", 5)
    focusd.call("io.focusd.Focus.Send", {"command": "crown", "detents": 3, "scene": scene})
    value = wait_for(lambda: page.eval("document.getElementById('volume').value") == "65", 5)
    events = page.eval("events")
    check("crown on a range input: stepUp ×3 with input and change events", value and "input:volume:65" in events
          and "change:volume:65" in events, json.dumps(events))
    focusd.call("io.focusd.Focus.Send", {"command": "crown", "detents": -2, "scene": scene})
    value = wait_for(lambda: page.eval("document.getElementById('volume').value") == "55", 5)
    check("crown backwards: stepDown", value, page.eval("document.getElementById('volume').value"))

    # Fixed and sticky bars over a scrolling document (fixed.html: a fixed header, a sticky filter
    # bar under it, a fixed bottom bar, twenty rows of cards).
    page.send("Page.navigate", url=page_url("fixed.html"))
    wait_for(lambda: {"c19-2", "nav-home", "bar-play"} <= scene_ids(), 10)
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "c0-0"})
    wait_for(lambda: page.active() == "c0-0", 5)

    def settled(expect):
        """DOM focus on `expect`, and the page scrolled where focusd scrolled it."""
        def agrees():
            offsets = focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"].get("scroll", [])
            root_y = next((o["offsetY"] for o in offsets if o["node"] == "#document"), 0)
            return page.active() == expect and page.eval("scrollY") == root_y
        return wait_for(agrees, 5)

    def unseen():
        """The focused element when its centre is under something else (a fixed or sticky bar), else None."""
        return page.eval("(e => { const r = e.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2,"
                         " r.top + r.height / 2); return hit === e || e.contains(hit) ? null : `${e.id} under ${hit && (hit.id || hit.localName)}`; })"
                         "(document.activeElement)")
    hidden, walked = [], []
    for row in range(1, 20):
        command("down", f"c{row}-0")
        walked.append(page.active())
        if not settled(f"c{row}-0"):
            state = focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"]
            hidden.append(f"c{row}-0 not reached: DOM {page.active()} scrollY {page.eval('scrollY')}, focusd {state.get('focused')} {state.get('scroll')}")
            break
        if unseen():
            hidden.append(unseen())
    check("down through twenty rows: focusd scrolls so that no card it focuses is hidden under the fixed header, the sticky "
          "bar or the fixed bottom bar", walked[-1:] == ["c19-0"] and not hidden, f"{hidden[:4]}, walked to {walked[-1:]}")
    # Up from the cards into the sticky bar (right above the top card shown, focus.md's geometry):
    # the bar moves with the viewport, so focus on it scrolls nothing; down comes back to a card
    # shown, not one under a bar.
    path, before = [], None

    def bars_current():
        """focusd has the sticky bar's frame where the page shows it now (a scroll moves it)."""
        node = find(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"], "filter-all") or {}
        return node.get("frame", {}).get("y") == page.box("#filter-all")[1] + page.eval("scrollY")
    for _ in range(8):
        wait_for(bars_current, 5)
        before = page.eval("scrollY")
        command("up", None)
        path.append(wait_for(lambda: (lambda a: a if a == focused() else None)(page.active()), 5))
        if path[-1] == "filter-all":
            break
    time.sleep(0.2)
    stayed = page.eval("scrollY")
    command("down", None)
    back = wait_for(lambda: (lambda a: a if a and a.startswith("c") and a == focused() else None)(page.active()), 5)
    settled(back)
    check("up from the scrolled cards reaches the sticky bar without scrolling the document; down comes back to a card shown",
          path[-1:] == ["filter-all"] and stayed == before and back and not unseen(),
          f"up {path}, scrollY {before} → {stayed}, down {back}, {unseen()}")
    command("down", None)
    for _ in range(6):
        command("down", None)
    settled(page.active())
    scrolled = page.eval("scrollY")
    bars = ("nav-home", "filter-all", "bar-play")
    boxes = {i: [v + (scrolled if k == 1 else 0) for k, v in enumerate(page.box(f"#{i}"))] for i in bars}

    def bar_frames():
        root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
        return {i: [(find(root, i) or {}).get("frame", {}).get(k) for k in ("x", "y", "width", "height")] for i in bars}
    frames = wait_for(lambda: (lambda f: f if f == boxes else None)(bar_frames()), 5) or bar_frames()
    check("after the document scrolled, the fixed and sticky bars' candidates have their frames where they are shown, in "
          "document coordinates", scrolled > 300 and frames == boxes, f"scrollY {scrolled}: focusd {frames}, page {boxes}")

    # A single-page app: a route change (history.pushState) replaces the whole view in the same
    # document; back (popstate) renders the route it returns to. The focused element goes with the
    # view it was in: focus lands in the new view (the <main> around it), not back at the top.
    page.send("Page.navigate", url=page_url("spa.html"))
    wait_for(lambda: "home-1" in scene_ids(), 10)
    view = find(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"], "view") or {}
    check("the main landmark is a node of its own holding the view, not a section (adapters.md §2 lists no such section)",
          "home-1" in node_ids(view) and not view.get("section") and not view.get("frame"), json.dumps(view)[:300])
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "home-1"})
    wait_for(lambda: page.active() == "home-1", 5)
    focusd.call("io.focusd.Focus.Send", {"command": "select", "scene": scene})
    routed = wait_for(lambda: page.active() == "detail-0" and focused() == "detail-0", 5)
    check("a route change replacing the view holding focus: focus lands on the new view's first item, in the page and in focusd",
          routed and page.eval("location.search") == "?route=detail", f"DOM {page.active()}, focusd {focused()}, {sorted(scene_ids())}")
    focusd.call("io.focusd.Focus.Send", {"command": "back", "scene": scene})
    returned = wait_for(lambda: page.active() == "home-0" and focused() == "home-0", 5)
    check("back: popstate renders the earlier route in the same document, and focus lands in it",
          returned and page.eval("location.search") == "" and page.eval("renders") == 3, f"DOM {page.active()}, focusd {focused()}, "
          f"renders {page.eval('renders')}, url {page.eval('location.href')}")

    # Widgets of the platform (widgets.html): a popover menu, details/summary, select,
    # contenteditable, video controls, dir=rtl, a rail scaled by a CSS transform, a non-modal dialog.
    page.send("Page.navigate", url=page_url("widgets.html"))
    widgets = {"open-menu", "more-summary", "pick", "editor", "player", "rtl-0", "rtl-1", "sc-0", "sc-2", "banner-ok"}
    arrived = wait_for(lambda: widgets <= scene_ids(), 10)
    check("autofocus: the element HTML focuses at load holds focus, in focusd too",
          wait_for(lambda: page.active() == "next-to-menu" and focused() == "next-to-menu", 5), f"DOM {page.active()}, focusd {focused()}")
    root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
    wrong = {i: ((find(root, i) or {}).get("frame"), page.box(f"#{i}")) for i in widgets}
    wrong = {i: v for i, v in wrong.items() if not v[0] or [v[0][k] for k in ("x", "y", "width", "height")] != v[1]}
    check("summary, select, contenteditable, video controls, rtl buttons, a scaled rail's items, a non-modal dialog's button: "
          "candidates with the boxes they are shown in", arrived and not wrong, f"{sorted(widgets - scene_ids())} missing, {wrong}")
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "rtl-0"})
    wait_for(lambda: page.active() == "rtl-0", 5)
    check("dir=rtl: left from the first button goes to the second (shown left of it)", command("left", "rtl-1") == "rtl-1")
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "open-menu"})
    wait_for(lambda: page.active() == "open-menu", 5)
    focusd.call("io.focusd.Focus.Send", {"command": "select", "scene": scene})
    opened = wait_for(lambda: {"menu-a", "menu-b"} <= scene_ids(), 5)
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "menu-b"})
    inside = wait_for(lambda: page.active() == "menu-b", 5)
    check("a popover opened by select: its items become candidates, and take focus", opened and inside, f"{sorted(scene_ids())}")
    href = page.eval("location.href")
    focusd.call("io.focusd.Focus.Send", {"command": "back", "scene": scene})
    closed = wait_for(lambda: page.eval("(m => !!m && !m.matches(':popover-open'))(document.getElementById('menu'))"), 5)
    gone = wait_for(lambda: not ({"menu-a", "menu-b"} & scene_ids()), 5)
    check("back with a popover open closes it (as Escape does) instead of leaving the page; its items leave the scene",
          closed and gone and page.eval("location.href") == href, f"closed {closed}, {page.eval('location.href')}")
    check("and focus returns to its invoker, in focusd too",
          wait_for(lambda: page.active() == "open-menu" and focused() == "open-menu", 5), f"DOM {page.active()}, focusd {focused()}")

    # Content that appears after the page has loaded (late.html): no candidate when the document
    # is first read, so focusd's default is chosen once one appears; and ARIA widgets whose items
    # take focus, or do not.
    for query, how in (("", "a page shown only once its scripts have run (a loading class hiding it)"),
                       ("?render", "a page whose script renders its content after load")):
        page.send("Page.navigate", url=page_url("late.html", query))
        shown = wait_for(lambda: "item-0" in scene_ids(), 10)
        held = lambda: focusd.call("io.focusd.Focus.GetState", {"scene": scene})["state"].get("focused")  # noqa: E731
        check(f"{how}: focusd's default focus lands in it once it is there, with no command",
              shown and wait_for(lambda: page.active() and page.active() == held(), 5),
              f"DOM {page.active()}, focusd {held()}, {sorted(scene_ids())}")
    root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
    ids = set(node_ids(root))
    menu = find(root, "menu") or {}
    check("a menu of tabindex 0 whose items have tabindex -1: a section of its items; the menu itself is no candidate",
          {"item-0", "item-1", "item-2"} <= ids and menu.get("section") and "menu:self" not in ids and not menu.get("focusable"),
          f"{sorted(ids)}, menu {json.dumps({k: v for k, v in menu.items() if k != 'children'})}")
    check("focusd's default focus is the menu's first item", page.active() == "item-0", page.active())
    check("down walks the menu's items", command("down", "item-1") == "item-1" and command("down", "item-2") == "item-2", page.active())
    check("a list box holding DOM focus itself (aria-activedescendant, options with no tabindex): the list box is the candidate, "
          "not its options, which cannot take DOM focus", "box:self" in ids and not ({"opt-0", "opt-1"} & ids), sorted(ids))
    check("and focus reaches it", command("down", "box") == "box", page.active())
    links = find(root, "links") or {}
    check("role=navigation (nav's role, on a div) is a section, as nav is",
          links.get("section") and {"link-a", "link-b"} <= set(node_ids(links)), json.dumps(links))

    # A page that never rests (carousel.html: its track slides every 500 ms, a clock ticks every
    # second): the scene keeps up in patches, focus stays where it is, and what that costs.
    page.send("Page.navigate", url=page_url("carousel.html"))
    wait_for(lambda: {"slide-0", "slide-7", "below-0"} <= scene_ids(), 10)
    wait_for(lambda: page.active() and page.active() == focused(), 5)  # the new page's default focus first
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "slide-1"})
    wait_for(lambda: page.active() == "slide-1", 5)
    asked = session.adapter_log().count("does not fit")
    stats_before, ticks_before = page.agent("__focusd.stats()"), page.eval("ticks")

    def cpu_ms(pid):
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    cpu_before, started = (cpu_ms(session.adapter.pid), cpu_ms(session.focusd.pid)), time.time()
    time.sleep(5)
    elapsed = time.time() - started
    cpu = [(cpu_ms(p) - b) / elapsed for p, b in zip((session.adapter.pid, session.focusd.pid), cpu_before)]
    stats, ticks = page.agent("__focusd.stats()"), page.eval("ticks") - ticks_before

    def slide_frames_agree():
        root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
        step = page.eval("ticks")
        frames = {i: [(find(root, i) or {}).get("frame", {}).get(k) for k in ("x", "y", "width", "height")] for i in ("slide-1", "slide-5")}
        boxes = {i: page.box(f"#{i}") for i in frames}
        return (frames == boxes and page.eval("ticks") == step) or None
    agree = wait_for(slide_frames_agree, 2, interval=0.05)
    print(f"  a page mutating all the time: {ticks} slides in {elapsed:.1f} s, {stats['patches'] - stats_before['patches']} patches, "
          f"{stats['whole'] - stats_before['whole']} whole reads; CPU per second: adapter {cpu[0]:.1f} ms, focusd {cpu[1]:.1f} ms; "
          f"load {open('/proc/loadavg').read().split()[0]}")
    check("a carousel sliding every 500 ms and a clock ticking: every slide reaches focusd as a patch, none out of sequence, "
          "its frames are the page's, focus stays on its slide",
          ticks >= 8 and stats["patches"] - stats_before["patches"] >= ticks and stats["corrections"] == stats_before["corrections"]
          and session.adapter_log().count("does not fit") == asked and agree and page.active() == "slide-1" and focused() == "slide-1",
          f"ticks {ticks}, {json.dumps(stats)}, agree {agree}, DOM {page.active()}, focusd {focused()}")

    # A real keyboard's keys (trusted, from the browser's input pipeline) reach the page by default.
    check("by default a keyboard the browser receives natively still reaches the page",
          keyboard_reaches(page, "ArrowDown") and keyboard_reaches(page, "Tab"))

    # A page that breaks the JavaScript environment it shares with anything in its main world (as
    # libraries and polyfills do): Array's methods and iterator, JSON, Map/Set/WeakMap/WeakSet,
    # Element's getBoundingClientRect/focus/getAttribute/checkVisibility, addEventListener,
    # MutationObserver, its own window.__focusd, frozen prototypes. The agent runs in a world of
    # its own: none of it reaches the agent, and the page cannot reach the agent either.
    page.send("Page.navigate", url=page_url("hostile.html"))
    hostile = {"h0", "h1", "h2", "h3", "h4"}
    arrived = wait_for(lambda: hostile <= scene_ids(), 10)
    root = focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"]
    h1 = (find(root, "h1") or {}).get("frame", {})
    box = page.box("#h1")
    check("a page breaking Array, JSON, Map/Set, Element's methods, addEventListener, MutationObserver, freezing prototypes: "
          "its candidates are in focusd with their real boxes",
          arrived and [h1.get(k) for k in ("x", "y", "width", "height")] == box, f"{sorted(scene_ids())}, h1 {h1} vs {box}")
    focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "h0"})
    got = wait_for(lambda: page.active() == "h0", 5) and command("right", "h1")
    got = got == "h1" and command("down", "h4")
    check("on that page focusd's moves move DOM focus", got == "h4", f"DOM {page.active()}, focusd {focused()}")
    focusd.call("io.focusd.Focus.Send", {"command": "select", "scene": scene})
    check("and select clicks the focused element", wait_for(lambda: page.eval("clicks") == ["h4"], 5), json.dumps(page.eval("clicks")))
    page.eval("addButton('h5'), true")
    check("and an element it adds becomes a candidate (the agent's own MutationObserver)", wait_for(lambda: "h5" in scene_ids(), 5),
          sorted(scene_ids()))
    check("the page's own window.__focusd is never called, and the agent's binding is not in the page's world",
          page.eval("agentCalls.length") == 0 and page.eval("typeof window.__focusdNotify") == "undefined",
          f"calls {page.eval('agentCalls')}, binding {page.eval('typeof window.__focusdNotify')}")

    # focusd restarts: the adapter re-sends the scene.
    session.stop_focusd()
    session.start_focusd()
    focusd = session.varlink()
    back = wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes").get("active") == scene, 10)
    check("focusd restarting: the adapter reconnects and re-sends its scene, active", back,
          json.dumps(focusd.call("io.focusd.Focus.ListScenes")))
    got = command("down", None)
    moved = wait_for(lambda: page.active() and page.active() == focusd.call(
        "io.focusd.Focus.GetState", {"scene": scene})["state"]["focused"], 5)
    check("and moves drive the page again", moved, f"{page.active()}")

    # The adapter exits: its scene goes, its browser stops.
    browser_pid = int(subprocess.run(["pgrep", "-P", str(session.adapter.pid)], capture_output=True, text=True).stdout.split()[0])
    session.adapter.send_signal(signal.SIGTERM)
    code = session.adapter.wait(15)
    gone = wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes")["scenes"] == [], 5)
    check("SIGTERM: the adapter exits 0, its scene goes with it", code == 0 and gone, f"exit {code}")
    check("and the browser it launched is stopped", wait_for(lambda: not os.path.exists(f"/proc/{browser_pid}"), 5))

    # --connect: a browser started on its own with a debugging port, over WebSocket.
    profile = os.path.join(session.work, "chrome-connect")

    def start_browser(port, profile):
        command = session.browser_command(page_url("tv.html"))
        command = [arg.replace("--remote-debugging-port=0", f"--remote-debugging-port={port}")
                   .replace(session.profile, profile) for arg in command]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=session.log("chrome-connect.log"))
        session.others.append(process)
        if port:  # a given port: chromium writes no DevToolsActivePort
            return process, port
        port_file = os.path.join(profile, "DevToolsActivePort")
        wait_for(lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1, 30)
        return process, int(open(port_file).read().split("\n")[0])
    browser, port = start_browser(0, profile)
    connected = subprocess.Popen([adapter, "chromium", "-v", "--socket", session.socket, "--connect", f"127.0.0.1:{port}"],
                                 stdout=session.log("adapter-connect.log"), stderr=subprocess.STDOUT)
    try:
        up = wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes").get("active", "") or "", 15)
        if not check("--connect 127.0.0.1:PORT adapts the browser's page over WebSocket", up.startswith("chromium:"), up):
            print("\n".join(line for line in open(os.path.join(session.work, "adapter-connect.log"), errors="replace").read().split("\n")
                            if "focusd-adapter" in line))
        # (The page may show its first document, about:blank, for a moment: its scene is replaced.)
        same = up and wait_for(lambda: "r1-0" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": up})["scene"]["root"]), 5)
        check("the same scene as over the pipe", same,
              json.dumps(node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": up})["scene"]["root"])) if up else "")
        browser.send_signal(signal.SIGTERM)
        browser.wait(15)
        gone = wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes")["scenes"] == [], 5)
        check("the browser closing: its scenes go, the adapter stays to reconnect", gone and connected.poll() is None)
        # The browser started again on the same port: the adapter finds it (its backoff, 250 ms
        # doubling to 5 s, runs only while there is no browser) and adapts its page again.
        browser, _ = start_browser(port, profile)
        back = wait_for(lambda: focusd.call("io.focusd.Focus.ListScenes").get("active", "") or "", 30)
        if back:
            wait_for(lambda: "r1-0" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": back})["scene"]["root"]), 5)
        root = focusd.call("io.focusd.Inspect.GetScene", {"scene": back})["scene"]["root"] if back else {"id": ""}
        if not check("the browser restarted on the same port: the adapter reconnects and its page is a scene again",
                     browser.poll() is None and back.startswith("chromium:") and "r1-0" in node_ids(root), f"port {port}, scene {back!r}"):
            for name in ("chrome-connect.log", "adapter-connect.log"):
                print("\n".join(line for line in open(os.path.join(session.work, name), errors="replace").read().split("\n")
                                if "dbus" not in line)[-2500:])
        # keyboards = "focusd", from focusd's config file as a kiosk sets it: a native keyboard's
        # navigation keys are focusd's, not the page's. A bad value there stops the adapter with its line.
        bad_config = os.path.join(session.work, "bad-focusd.toml")
        with open(bad_config, "w") as file:
            file.write("[adapters.chromium]\nkeyboards = \"both\"\n")
        refused = subprocess.run([os.path.join(session.build_dir, "focusd-adapter"), "chromium", "--socket", session.socket,
                                  "--config", bad_config, "--launch", "--", "true"], capture_output=True, text=True, timeout=30)
        check("a config file with a bad [adapters.chromium] keyboards stops the adapter, naming the file and line",
              refused.returncode == 1 and f"{bad_config}: line 2" in refused.stderr and "\"both\"" in refused.stderr, refused.stderr)
        config = os.path.join(session.work, "focusd.toml")
        with open(config, "w") as file:
            file.write("[adapters.chromium]\nkeyboards = \"focusd\"\n")
        session.start_adapter(page_url("form.html"), options=("--config", config))
        page = session.page()
        scene = page.scene_name()

        def has_volume():
            try:
                return "volume" in node_ids(focusd.call("io.focusd.Inspect.GetScene", {"scene": scene})["scene"]["root"])
            except RuntimeError:  # NoSuchScene: not sent yet
                return False
        if not check("keyboards = focusd in the config file: the page is adapted as without it", wait_for(has_volume, 30), session.adapter_log()[-1500:]):
            return
        # (The new page's default focus first: a Focus racing the adapter's ResetFocus for it is
        # undone by it, as focusd has no ResetFocus-if-unfocused; docs/adapter-decisions.md.)
        wait_for(lambda: page.active() and page.active() == focused(), 5)
        focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "tab-a"})
        wait_for(lambda: page.active() == "tab-a", 5)
        check("keyboards = focusd in the config file: a native keyboard's arrows, Tab and Enter never reach the page",
              not keyboard_reaches(page, "ArrowDown") and not keyboard_reaches(page, "Tab") and not keyboard_reaches(page, "Enter")
              and page.active() == "tab-a", f"DOM focus {page.active()}, focusd {focusd.call('io.focusd.Focus.GetState', {'scene': scene})['state'].get('focused')}, "
              f"agent {json.dumps(page.agent('__focusd.stats()'))}, {[l for l in session.adapter_log().splitlines() if 'focusd-adapter' in l][-8:]}")
        check("and its other keys still do", keyboard_reaches(page, "a"))
        focusd.call("io.focusd.Focus.Send", {"command": "right", "scene": scene})
        check("focusd's own moves still reach the page", wait_for(lambda: page.active() == "tab-b", 5), page.active())
        focusd.call("io.focusd.Focus.Focus", {"scene": scene, "id": "name"})
        wait_for(lambda: page.active() == "name", 5)
        check("in a text field the arrows stay the field's", keyboard_reaches(page, "ArrowLeft") and not keyboard_reaches(page, "Tab"))
    finally:
        connected.send_signal(signal.SIGTERM)
        connected.wait(10)
        browser.send_signal(signal.SIGTERM)
        browser.wait(15)


session = Session(args.build_dir)
try:
    main(session)
finally:
    session.stop()
    if results["failed"]:
        print("adapter log (tail):\n" + session.adapter_log()[-4000:])
print(f"{results['passed']} passed, {results['failed']} failed")
sys.exit(1 if results["failed"] else 0)
