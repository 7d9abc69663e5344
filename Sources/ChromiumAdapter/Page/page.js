// focusd-adapter's page agent (adapters.md §2): injected into every document of a page target
// (Page.addScriptToEvaluateOnNewDocument), in an isolated world of its own (PageAdapter.agentWorld):
// it shares the page's DOM, not its JavaScript globals, so what a page does to Array, JSON, Map or
// Element.prototype, or a `window.__focusd` of its own, does not reach it, and the page cannot call
// it. It reads the page's scene, keeps it current from the page's own notices, and applies what
// the adapter asks. It talks to the adapter through the binding `__focusdNotify` (Runtime.addBinding,
// in its world only): one JSON message per call.
(() => {
  "use strict";
  if (window.__focusd) return;
  // --keyboards (adapters.md §2): "focusd" when a keyboard the browser receives natively is
  // focusd's; the adapter rewrites this line.
  const KEYBOARDS = "browser";
  if (KEYBOARDS === "focusd" && !window.__focusdKeys) {
    // A real keyboard's navigation keys never reach the page: this capturing listener on the
    // window is the first of all (the agent runs before any script of the document, in every
    // frame), and it stops the event and its default action (scrolling, Tab's focus move,
    // Enter's click). focusd's commands reach the page as the agent's own untrusted events,
    // which pass. In a text field, arrows, Enter and Backspace stay the field's.
    window.__focusdKeys = true;
    const NAVIGATION = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Tab", "Enter", "Escape", "Backspace"]);
    const EDITING = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Enter", "Backspace"]);
    const BUTTON_TYPES = new Set(["button", "checkbox", "radio", "range", "submit", "reset", "color", "file", "image"]);
    const swallow = (event) => {
      if (!event.isTrusted || !NAVIGATION.has(event.key)) return;
      let el = document.activeElement;
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
      const editing = el && (el.isContentEditable || el.localName === "textarea" || (el.localName === "input" && !BUTTON_TYPES.has(el.type)));
      if (editing && EDITING.has(event.key)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    for (const type of ["keydown", "keypress", "keyup"]) addEventListener(type, swallow, true);
  }
  // A frame's document is read by its top document's agent when it is same-origin (and is not
  // reached at all when it is not): an agent of its own would send its own scene as the page's.
  if (window.top !== window) return;
  const BINDING = "__focusdNotify";
  const ROOT_ID = "#document";
  // Sections with no frame of their own (adapters.md §2): `nav`, and these roles.
  // (`menu` and `treegrid` too: adapters.md §2 navigates inside "a section of role … menu", and a
  // treegrid is a grid; a widget whose items are candidates is a section around them. And
  // `navigation`, the role `nav` has: a sidebar written as <div role=navigation> is one.)
  const SECTION_ROLES = new Set(["navigation", "toolbar", "tablist", "menubar", "menu", "listbox", "radiogroup", "grid", "treegrid", "tree"]);
  /** The page's main landmark (`main`, `role=main`) is a node of its own that is not a section: a
   *  view a single-page app replaces keeps its node, so focus on a removed element is recovered
   *  inside it (focus.md §4: the nearest surviving ancestor holding a candidate), on the new view,
   *  not at the top of the page. As a plain node it changes nothing else: no containment, no
   *  frame competing, no place of its own in the sequential order (a section would have all three,
   *  which adapters.md §2 does not give `main`). */
  function isMainLandmark(tag, role) { return tag === "main" || role === "main"; }
  // Roving-tabindex widgets: the items of the role each owns are candidates even at tabindex=-1.
  const OWNED = { tablist: ["tab"], grid: ["gridcell", "row"], treegrid: ["gridcell", "row"], listbox: ["option"],
    menu: ["menuitem", "menuitemcheckbox", "menuitemradio"], menubar: ["menuitem", "menuitemcheckbox", "menuitemradio"],
    tree: ["treeitem"], radiogroup: ["radio"] };
  // A Map, not an object: a page's role="constructor" or "toString" must not find Object's members.
  const OWNED_BY = new Map();
  // For each widget role, a selector of its items that can take DOM focus (a tabindex, or focusable
  // by nature): the widget's own element is not a candidate while one of them is shown.
  const FOCUSABLE_ITEMS = new Map();
  for (const [widget, roles] of Object.entries(OWNED)) {
    for (const role of roles) { if (!OWNED_BY.has(role)) OWNED_BY.set(role, []); OWNED_BY.get(role).push(widget); }
    FOCUSABLE_ITEMS.set(widget, roles.map((r) => `[role="${r}"]:is([tabindex], a[href], button, input, select, textarea)`).join(", "));
  }
  const DISABLEABLE = new Set(["button", "input", "select", "textarea", "fieldset", "optgroup", "option"]);
  const TEXT_TYPES = new Set(["text", "email", "password", "url", "tel", ""]);
  const round = (v) => Math.round(v * 100) / 100;
  const SHOWN = { visibilityProperty: true };  // checkVisibility's options, made once

  const generated = new WeakMap();
  let generatedCount = 0;
  let byId = new Map();        // node id → element, as of the scene last sent (and being read)
  let reserved = new Map();    // during a whole read: the ids of the scene before, kept for their elements
  let idByElement = new WeakMap();
  let tree = null;             // the scene last sent, kept current in place (the incremental path)
  let info = new Map();        // node → { el, parent, ctx, kind, inner }: how to re-read it
  let structural = new Map();  // element → its section, scroll container or dialog node
  let lastModal = null;        // the modal element of the scene last sent
  let lastOffsets = null;
  let fresh = true;            // the document's first scene not yet sent
  let ready = false;           // DOMContentLoaded seen: scenes may be sent
  let scheduled = false;
  let applying = null;         // the element the adapter is focusing (its focusin is not echoed)
  let unsent = false;          // a scene found no binding to send through
  let focusReports = 0;        // focus reports sent: the adapter says which it had seen when it applies focus
  let sequence = 0;            // scene messages sent (scene, patch, offsets): the adapter finds a gap by it
  let forced = false;          // the adapter asked for the whole scene: sent even if it did not change
  let observed = new Set();
  let readNow = null;          // nodes read in the current pass (their frames are new already)
  const stats = { whole: 0, patches: 0, verified: 0, corrections: 0, lastPatchMs: 0, passes: 0, lastScene: null };
  // When the last whole scene was read and sent (ms since the navigation started, performance.now()):
  // the parts of the first scene's time that run in the page, for benchmarks.
  let timing = null;
  // What the page's notices since the last message name: subtrees to read again, removed nodes.
  const BURST_LIMIT = 200;     // more roots than this in one burst: the whole page is read again
  const newPending = (whole) => ({ dirty: new Set(), removed: new Set(), whole });
  let pending = newPending(true);

  const send = (message) => {
    const binding = window[BINDING];
    if (typeof binding === "function") binding(JSON.stringify(message));
  };

  // --- Reading the scene ---------------------------------------------------------------------

  function hasMarks(el) {
    if (!el.hasAttributes()) return false;
    for (const name of el.getAttributeNames()) {
      if (name === "data-focusable" || name === "data-focus" || name.startsWith("data-focus-")) return true;
    }
    return false;
  }

  function tabindex(el) {
    const text = el.getAttribute("tabindex");
    if (text === null) return null;
    const value = parseInt(text, 10);
    return Number.isNaN(value) ? null : value;
  }

  /** Whether HTML's sequential focus navigation reaches `el` (rendering checked apart); `tag` and
   *  `role`: its `localName` and `role` attribute (read once per element by the caller). */
  function sequentiallyFocusable(el, tag, role) {
    const index = tabindex(el);
    const widgets = role ? OWNED_BY.get(role) : undefined;
    // An item of a widget it is inside, at any tabindex: it takes DOM focus. One with no tabindex
    // cannot (an aria-activedescendant widget's option): it is read as any element is.
    if (index !== null && widgets && widgets.some((w) => el.parentElement?.closest(`[role="${w}"]`))) return true;
    if (index !== null && index < 0) return false;
    let natural = false;
    switch (tag) {
      case "a": case "area": natural = el.hasAttribute("href"); break;
      case "button": case "select": case "textarea": natural = true; break;
      case "input": natural = el.type !== "hidden"; break;
      case "summary": {
        const details = el.parentElement;
        natural = details?.localName === "details" && details.querySelector(":scope > summary") === el;
        break;
      }
      case "audio": case "video": natural = el.hasAttribute("controls"); break;
      case "iframe": natural = false; break;
    }
    if (!natural && el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) natural = true;
    if (!natural && index === null) return false;
    // `:disabled` matches only what HTML lets be disabled: form controls, option, optgroup,
    // fieldset and form-associated custom elements (a name with a hyphen); a link, a div with
    // tabindex, a summary never need the selector match.
    if ((DISABLEABLE.has(tag) || tag.includes("-")) && el.matches(":disabled")) return false;
    return true;
  }

  /** `data-focus-id`, else the DOM `id` unless another element of the scene holds it, else a
   *  generated one. An id stays with its element: a whole read keeps each id of the scene before
   *  for the element that had it (`reserved`), so reading a part or the whole gives the same ids. */
  function idOf(el, marked = true) {
    // (`marked`: false when the element has no data-focus… attribute, so no data-focus-id either.)
    const given = (marked ? el.getAttribute("data-focus-id") : null) || el.id;
    if (given && given !== ROOT_ID) {
      const holder = byId.get(given) ?? (reserved.size ? reserved.get(given) : undefined);
      if (!holder || holder === el) return given;
    }
    let id = generated.get(el);
    if (!id) {
      id = `focusd-${++generatedCount}`;
      generated.set(el, id);
    }
    return id;
  }

  function scrollInfo(el, style) {
    const overflowX = style.overflowX, overflowY = style.overflowY;
    const scrollsX = (overflowX === "auto" || overflowX === "scroll") && el.scrollWidth > el.clientWidth;
    const scrollsY = (overflowY === "auto" || overflowY === "scroll") && el.scrollHeight > el.clientHeight;
    if (!scrollsX && !scrollsY) return null;
    const scroll = {
      axis: scrollsX && scrollsY ? "both" : scrollsX ? "horizontal" : "vertical",
      contentWidth: round(el.scrollWidth), contentHeight: round(el.scrollHeight),
      offsetX: round(el.scrollLeft), offsetY: round(el.scrollTop),
    };
    scrollStyle(el, style, scroll);
    return scroll;
  }

  /** policy from the children's scroll-snap-align, margin from scroll-padding. */
  function scrollStyle(el, style, scroll) {
    for (const child of el.children) {
      const align = getComputedStyle(child).scrollSnapAlign;
      if (!align || align === "none") continue;
      if (align.includes("center")) scroll.policy = "center";
      else if (align.includes("start")) scroll.policy = "leading";
      break;
    }
    const padding = scroll.axis === "horizontal" ? style.scrollPaddingLeft : style.scrollPaddingTop;
    const margin = parseFloat(padding);
    if (Number.isFinite(margin) && margin > 0) scroll.margin = round(margin);
  }

  function frameOf(rect, origin) {
    return { x: round(rect.left - origin.x), y: round(rect.top - origin.y), width: round(rect.width), height: round(rect.height) };
  }

  function parseList(text) { return (text ?? "").split(/[\s,]+/).filter(Boolean); }
  function parseBindings(text) {
    return parseList(text).map((item) => {
      const eq = item.indexOf("=");
      return eq < 0 ? { name: item } : { name: item.slice(0, eq), value: item.slice(eq + 1) };
    });
  }
  function parseMap(text) {
    if (text == null) return undefined;
    const trimmed = text.trim();
    if (trimmed.startsWith("{")) { try { return JSON.parse(trimmed); } catch { return undefined; } }
    const map = {};
    for (const part of trimmed.split(";")) {
      const eq = part.indexOf("=");
      if (eq > 0) map[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
    return map;
  }
  function number(text) { const v = parseFloat(text); return Number.isFinite(v) ? v : undefined; }

  /** The page's data-focus… attributes (web/focusd.js's vocabulary) win over what was inferred. */
  function applyMarks(el, node) {
    const a = (name) => el.getAttribute(`data-focus-${name}`);
    const has = (name) => el.hasAttribute(`data-focus-${name}`);
    if (el.hasAttribute("data-focusable")) node.focusable = el.getAttribute("data-focusable") !== "false";
    if (has("disabled")) node.disabled = a("disabled") !== "false";
    if (has("interactions")) node.interactions = parseList(a("interactions"));
    if (has("section")) node.section = a("section") !== "false";
    if (has("scope")) node.scope = a("scope") || node.id;
    if (has("prefers-default")) node.prefersDefaultFocus = a("prefers-default");
    if (has("default")) {
      const [binding] = parseBindings(a("default"));
      if (binding) {
        node.defaultFocus = { ...binding };
        if (has("default-priority")) node.defaultFocus.priority = a("default-priority");
      }
    }
    if (has("binding")) node.bindings = parseBindings(a("binding"));
    if (has("accessibility-binding")) node.accessibilityBindings = parseBindings(a("accessibility-binding"));
    if (has("values")) node.values = parseMap(a("values"));
    if (has("scene-values")) node.sceneValues = parseMap(a("scene-values"));
    if (has("effect-disabled")) node.focusEffectDisabled = true;
    if (has("role")) node.role = a("role");
    if (has("remembers")) node.remembersLastFocus = a("remembers") !== "false";
    if (has("wrap")) node.wrap = a("wrap") || "both";
    if (has("next")) node.next = parseMap(a("next"));
    if (has("modal")) node.modal = a("modal") !== "false";
    if (has("scroll-policy") && node.scroll) node.scroll.policy = a("scroll-policy");
    if (has("scroll-margin") && node.scroll) node.scroll.margin = number(a("scroll-margin"));
  }

  /** A keydown and a keyup (`keyInit`: KeyboardEventInit members) at `target`, in its own realm;
   *  whether the page let the keydown's default happen. */
  function press(target, keyInit) {
    const init = { ...keyInit, bubbles: true, cancelable: true, composed: true };
    const view = target.ownerDocument?.defaultView || window;
    const proceed = target.dispatchEvent(new view.KeyboardEvent("keydown", init));
    target.dispatchEvent(new view.KeyboardEvent("keyup", init));
    return proceed;
  }

  function openModal() {
    const dialogs = document.querySelectorAll("dialog:modal");
    if (dialogs.length) return dialogs[dialogs.length - 1];
    const marked = [...document.querySelectorAll('[aria-modal="true"]')].filter((el) => el.checkVisibility({ visibilityProperty: true }));
    return marked.length ? marked[marked.length - 1] : null;
  }

  /** The innermost open `auto` popover (one that holds no other open one; the last of those), or null. */
  function openPopover() {
    let open;
    try { open = document.querySelectorAll(":popover-open"); } catch { return null; }  // a browser without popovers
    let found = null;
    for (const el of open) {
      if (el.popover !== "auto") continue;
      if (!found || !el.contains(found)) found = el;
    }
    return found;
  }

  /** A frame's document when the page may read it (same origin), else null. */
  function frameDocument(iframe) {
    try { return iframe.contentDocument; } catch { return null; }
  }

  /** The element holding focus, through open shadow roots and same-origin frames. */
  function deepActive() {
    let el = document.activeElement;
    for (;;) {
      if (el && el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
      if (el && el.localName === "iframe") {
        const inner = frameDocument(el);
        const active = inner && inner.activeElement;
        if (active && active !== inner.body && active !== inner.documentElement) { el = active; continue; }
      }
      return el;
    }
  }

  // Open shadow roots and frames' documents: the document's observer and listeners do not see
  // into them, so each gets its own (once: a WeakSet).
  const watched = new WeakSet();
  function watch(root) {
    if (watched.has(root)) return;
    watched.add(root);
    mutations.observe(root, { subtree: true, childList: true, attributes: true, characterData: false });
    if (root.nodeType === Node.DOCUMENT_NODE) {
      root.addEventListener("scroll", () => schedule(), { capture: true, passive: true });
      root.addEventListener("focusin", focusIn, true);
      root.defaultView?.addEventListener("resize", () => schedule());
    }
  }

  // --- Coordinates ---------------------------------------------------------------------------
  // A node's frame is its box (viewport coordinates) minus its context's origin: the document
  // (document coordinates), a scroll container (its scrolled content), or a same-origin frame
  // (the iframe's content box within the context around it). Origins are read once per pass.
  const DOCUMENT = { kind: "document" };
  let origins = new Map();
  function originOf(ctx) {
    let origin = origins.get(ctx);
    if (origin) return origin;
    if (ctx.kind === "document") {
      origin = { x: -scrollX, y: -scrollY };
    } else if (ctx.kind === "scroll") {
      const el = ctx.el, rect = el.getBoundingClientRect();
      origin = { x: rect.left + el.clientLeft - el.scrollLeft, y: rect.top + el.clientTop - el.scrollTop };
    } else {
      const el = ctx.el, rect = el.getBoundingClientRect(), style = getComputedStyle(el), outer = originOf(ctx.outer);
      origin = { x: outer.x - rect.left - el.clientLeft - (parseFloat(style.paddingLeft) || 0),
        y: outer.y - rect.top - el.clientTop - (parseFloat(style.paddingTop) || 0) };
    }
    origins.set(ctx, origin);
    return origin;
  }

  /** The root's own fields (the viewport, the document's scrolling); `whole`: for a whole read,
   *  which looks for bars over the viewport whether or not the last look found one. */
  function readRoot(whole = false) {
    const scroller = document.scrollingElement || document.documentElement;
    const rootStyle = scroller ? getComputedStyle(scroller) : null;
    const viewportWidth = document.documentElement.clientWidth || innerWidth;
    const viewportHeight = document.documentElement.clientHeight || innerHeight;
    const contentWidth = scroller ? Math.max(scroller.scrollWidth, viewportWidth) : viewportWidth;
    const contentHeight = scroller ? Math.max(scroller.scrollHeight, viewportHeight) : viewportHeight;
    const scrollsX = contentWidth > viewportWidth && rootStyle?.overflowX !== "hidden";
    const scrollsY = contentHeight > viewportHeight && rootStyle?.overflowY !== "hidden";
    rootScrollsY = scrollsY;
    const root = {
      id: ROOT_ID,
      frame: { x: 0, y: 0, width: round(innerWidth), height: round(innerHeight) },
      scroll: {
        axis: scrollsX && !scrollsY ? "horizontal" : scrollsY && !scrollsX ? "vertical" : "both",
        contentWidth: round(contentWidth), contentHeight: round(contentHeight),
        offsetX: round(scrollX), offsetY: round(scrollY),
      },
    };
    if (rootStyle && document.body) scrollStyle(document.body, rootStyle, root.scroll);
    applyBars(root, whole);
    if (document.body && hasMarks(document.body)) applyMarks(document.body, root);
    return root;
  }

  /** Whether the last whole read found a bar over the viewport: only then does a pass look for
   *  bars again (its hit tests bring the page's rendering up to date beyond layout: 5–8 ms added
   *  to each DOM mutation's way to focusd on a page of 1,000 candidates with no bar at all). Every
   *  whole read looks, a new document's first included (~10 ms of a 5,000-candidate first scene:
   *  looking later, once idle, sent a second whole scene while focusd was already scrolling the
   *  page, and a walk under the bars lost its offset once in a rehearsal); the idle-time check
   *  after changes corrects a bar that came or went meanwhile. Noting fixed and sticky elements as
   *  the read meets them instead cost as much (a computed-style string per element). */
  let barsSeen = false;
  let rootScrollsY = false;  // whether the document scrolls vertically, as the root was last read

  /** The bars that stay over the scrolling document (a fixed header, a sticky bar stuck under it,
   *  a fixed bottom bar) hide what scrolls under them: focusd keeps focus that far from the
   *  viewport's edges, as the page's `scroll-padding` would (the larger of the two wins). */
  function applyBars(root, whole) {
    if (!whole && !barsSeen) return;
    const inset = rootScrollsY ? obscured() : 0;
    if (whole) barsSeen = inset > 0;
    if (inset > (root.scroll.margin ?? 0)) root.scroll.margin = inset;
  }

  /** The innermost fixed or sticky element holding `el` (itself included, below the body), or null. */
  function stuckAncestor(el) {
    for (; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
      const position = getComputedStyle(el).position;
      if (position === "fixed" || position === "sticky") return el;
    }
    return null;
  }

  /** The fixed or sticky element at viewport point (x, y) (the hit or an ancestor), as wide as
   *  half the viewport and at most half as tall (a bar, not a backdrop), or null. */
  function barAt(x, y, width, height) {
    const bar = stuckAncestor(document.elementFromPoint(x, y));
    if (!bar) return null;
    const rect = bar.getBoundingClientRect();
    return rect.width >= width / 2 && rect.height <= height / 2 ? rect : null;
  }

  /** Whether `el` is in a fixed or sticky element of the top document. */
  function inBar(el) {
    return !!el && el.ownerDocument === document && stuckAncestor(el) !== null;
  }

  /** How far the bars over the viewport's top and bottom edges reach into it (the larger), found
   *  by hit tests down from the top edge and up from the bottom one (a bar under a bar: the
   *  next). A few hit tests, whatever the page's size. */
  function obscured() {
    const width = document.documentElement.clientWidth || innerWidth, height = document.documentElement.clientHeight || innerHeight;
    if (!document.body || !width || !height) return 0;
    let top = 0, bottom = 0;
    for (let i = 0; i < 4 && top < height / 2; i++) {
      const rect = barAt(width / 2, top + 0.5, width, height);
      if (!rect || rect.top > top + 1 || rect.bottom <= top) break;
      top = rect.bottom;
    }
    for (let i = 0; i < 4 && bottom < height / 2; i++) {
      const rect = barAt(width / 2, height - bottom - 0.5, width, height);
      if (!rect || rect.bottom < height - bottom - 1 || rect.top >= height - bottom) break;
      bottom = height - rect.top;
    }
    return round(Math.max(top, bottom));
  }

  /** Whether `el` may be a scroll container (``readContainer`` then says): marked as one, or
   *  overflowing with `overflow` `auto` or `scroll` on an axis. The style is read first: the
   *  sizes are layout reads, ~4 times its cost for every element of a page (5,000 buttons: 17 ms). */
  function mayContain(el, marked) {
    if (marked && el.hasAttribute("data-focus-scroll")) return true;
    const style = getComputedStyle(el);
    // One read of the shorthand ("visible", "auto hidden": both longhands) where it serializes,
    // instead of two (each read makes a string of a computed value).
    const both = style.overflow;
    if (both) {
      if (!both.includes("auto") && !both.includes("scroll")) return false;
    } else {
      const x = style.overflowX, y = style.overflowY;
      if (x !== "auto" && x !== "scroll" && y !== "auto" && y !== "scroll") return false;
    }
    return el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight;
  }

  /** A scroll container's own fields: its client box and its scrolling, or null when it does not scroll. */
  function readContainer(el, origin, marked) {
    let scroll = null;
    const scroller = document.scrollingElement || document.documentElement;
    if (el !== scroller && el !== document.body && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)) {
      scroll = scrollInfo(el, getComputedStyle(el));
    }
    if (marked && el.hasAttribute("data-focus-scroll") && !scroll) {
      scroll = { axis: el.getAttribute("data-focus-scroll") || "both", contentWidth: round(el.scrollWidth), contentHeight: round(el.scrollHeight),
        offsetX: round(el.scrollLeft), offsetY: round(el.scrollTop) };
    }
    if (!scroll) return null;
    if (marked && el.hasAttribute("data-focus-scroll-policy")) scroll.policy = el.getAttribute("data-focus-scroll-policy");
    if (marked && el.hasAttribute("data-focus-scroll-margin")) scroll.margin = number(el.getAttribute("data-focus-scroll-margin"));
    const rect = el.getBoundingClientRect();
    const frame = { x: round(rect.left + el.clientLeft - origin.x), y: round(rect.top + el.clientTop - origin.y),
      width: round(el.clientWidth), height: round(el.clientHeight) };
    return { frame, scroll };
  }

  // --- Reading the page ----------------------------------------------------------------------

  /** Records `node` (of `el`, under `parent`, framed in `ctx`) for reading again later. */
  function register(el, node, parent, ctx, kind, inner) {
    info.set(node, { el, parent, ctx, kind, inner });
    byId.set(node.id, el);
    idByElement.set(el, node.id);
    if (inner) structural.set(el, node);
    if (readNow) readNow.add(node);
  }

  /** Reads `el` and its subtree (light, open shadow, same-origin frame) into `parent.children`. */
  function visit(el, parent, ctx, modal) {
    const tag = el.localName;
    if (tag === "script" || tag === "style" || tag === "template" || tag === "head" || tag === "noscript") return;
    if (el.inert) return;
    if (modal && el !== modal && !modal.contains(el) && !el.contains(modal)) return;
    // One call for what is shown (most elements); the second only for what is not.
    const shown = el.checkVisibility(SHOWN);
    if (!shown && !el.checkVisibility()) {
      // No box: display:none (the subtree is not rendered) or content-visibility:hidden, but
      // display:contents keeps its children's boxes.
      if (getComputedStyle(el).display === "contents") visitChildren(el, parent, ctx, modal);
      return;
    }
    const marked = hasMarks(el);
    const role = el.getAttribute("role");
    const container = mayContain(el, marked) ? readContainer(el, originOf(ctx), marked) : null;
    const isModal = el === modal;
    const isSection = !container && !isModal && (tag === "nav" || SECTION_ROLES.has(role));
    const isGroup = !container && !isModal && !isSection && isMainLandmark(tag, role);
    if (container || isModal || isSection || isGroup) {
      const node = { id: idOf(el) };
      let inner = ctx, kind = "none";
      if (container) {
        node.frame = container.frame;
        node.section = true;
        node.remembersLastFocus = true;
        node.scroll = container.scroll;
        inner = { kind: "scroll", el };
        kind = "client";
      } else if (isModal) {
        node.frame = frameOf(el.getBoundingClientRect(), originOf(ctx));
        node.section = true;
        node.modal = true;
        kind = "box";
      } else if (isSection) {
        node.section = true;
      }
      if (marked) applyMarks(el, node);
      node.children = [];
      byId.set(node.id, el);  // held while its subtree is read (no descendant takes its id)
      if (shown && sequentiallyFocusable(el, tag, role) && !(isSection && holdsFocusableItems(el, role))) {
        // A focusable scroller or dialog: the element itself is a candidate inside its node. Not a
        // widget whose items are candidates (a menu or list box of tabindex 0, its items of -1):
        // its box covers them, so no directional move from it would reach them; they hold focus.
        const self = candidate(el, tag, role, originOf(inner), `${node.id}:self`);
        if (self) { node.children.push(self); register(el, self, node, inner, "candidate"); }
      }
      visitChildren(el, node, inner, modal);
      const shadow = el.shadowRoot;
      if (shadow) { watch(shadow); visitChildren(shadow, node, inner, modal); }
      if (node.children.length || marked || isModal) {
        if (!node.children.length) delete node.children;
        parent.children.push(node);
        register(el, node, parent, ctx, kind, inner);
        if (node.children) for (const child of node.children) if (info.get(child).el === el) idByElement.set(el, child.id);
      } else if (byId.get(node.id) === el) {
        byId.delete(node.id);
      }
      return;
    }
    if (tag === "iframe") {
      // A same-origin frame: its elements as if they were the iframe's, frames offset by the
      // iframe's content box (its document's own scrolling is in its elements' boxes).
      const inner = frameDocument(el);
      if (inner && inner.body) {
        watch(inner);
        visit(inner.body, parent, { kind: "frame", el, outer: ctx }, null);
      }
      return;
    }
    let node = null;
    if (shown && sequentiallyFocusable(el, tag, role)) node = candidate(el, tag, role, originOf(ctx), undefined, marked);
    let kind = "candidate";
    if (!node && marked) {
      node = { id: idOf(el), frame: frameOf(el.getBoundingClientRect(), originOf(ctx)) };
      kind = "box";
    }
    if (node) {
      if (marked) applyMarks(el, node);
      parent.children.push(node);
      register(el, node, parent, ctx, kind);
    }
    // Candidates nested in candidates are the enclosing node's siblings (candidates are leaves).
    visitChildren(el, parent, ctx, modal);
    const shadow = el.shadowRoot;
    if (shadow) { watch(shadow); visitChildren(shadow, parent, ctx, modal); }
  }

  /** Whether the widget `el` (of role `role`) holds a shown item of its own that takes DOM focus. */
  function holdsFocusableItems(el, role) {
    const selector = FOCUSABLE_ITEMS.get(role);
    if (!selector) return false;
    for (const item of el.querySelectorAll(selector)) if (item.checkVisibility(SHOWN)) return true;
    return false;
  }

  /** ``visit`` of each element child of `el` (an element or a shadow root), in order. Walked by
   *  sibling links: `el.children` made every element of the page a collection of its own (5,000
   *  leaves, 5,000 collections), the largest part of the read's own time after the layout reads. */
  function visitChildren(el, parent, ctx, modal) {
    for (let child = el.firstElementChild; child; child = child.nextElementSibling) visit(child, parent, ctx, modal);
  }

  /** The whole scene, read again from the page. */
  function read() {
    reserved = new Map();
    for (const [id, el] of byId) if (el.isConnected) reserved.set(id, el);
    byId = new Map();
    idByElement = new WeakMap();
    info = new Map();
    structural = new Map();
    origins = new Map();
    readNow = null;
    const root = readRoot(true);
    root.children = [];
    info.set(root, { el: null, parent: null, ctx: DOCUMENT, kind: "root", inner: DOCUMENT });
    lastModal = openModal();
    if (document.body) visit(document.body, root, DOCUMENT, lastModal);
    if (!root.children.length) delete root.children;
    reserved = new Map();
    stats.whole++;
    return root;
  }

  /** The rectangle a candidate stands for: its border box, or its label's for a visually hidden control. */
  function candidateRect(el) {
    let rect = el.getBoundingClientRect();
    if (rect.width <= 1 && rect.height <= 1 && el.labels && el.labels.length) {
      const label = el.labels[0].getBoundingClientRect();
      if (label.width > 0 && label.height > 0) rect = label;
    }
    return rect;
  }

  /** A candidate's node (frame: its border box, or its label's for a visually hidden control). */
  function candidate(el, tag, role, origin, selfId, marked) {
    const rect = candidateRect(el);
    if (!(rect.width > 0 && rect.height > 0)) return null;
    const node = { id: selfId ?? idOf(el, marked), frame: frameOf(rect, origin), focusable: true };
    const type = tag === "input" ? (el.getAttribute("type") || "").toLowerCase() : null;
    if (type === "search" || role === "searchbox") node.role = "search";
    else if (tag === "textarea" || (tag === "input" && TEXT_TYPES.has(type)) || (el.isContentEditable && tag !== "input")) node.role = "text";
    if (type === "range" || type === "number") node.interactions = ["activate", "edit"];
    return node;
  }

  // Every element of the scene is watched for a new size (a reflow moves and resizes boxes with
  // no mutation notice). A ResizeObserver reports every element it starts observing once, at the
  // next rendering update: for a read of 5,000 candidates that was a second pass over every box
  // right after the scene went, on the cores the adapter and focusd were using for it. So the
  // border box each element had when it was read is kept until that first report, and a first
  // report of that very size is no change.
  const sizeRead = new WeakMap();
  const resizeObserver = new ResizeObserver((entries) => { if (entries.some(resized)) schedule(); });
  function resized(entry) {
    const size = sizeRead.get(entry.target);
    if (!size) return true;
    sizeRead.delete(entry.target);
    const box = entry.borderBoxSize && entry.borderBoxSize[0];
    return !box || Math.abs(box.inlineSize - size[0]) > 0.01 || Math.abs(box.blockSize - size[1]) > 0.01;
  }
  /** Observes the elements of the scene read (after the read, once the scene is sent: not on its way). */
  function observe() {
    const next = new Map();  // element → its border box's size, or null to read it
    for (const [node, i] of info) {
      if (!i.el) continue;
      const leaf = (i.kind === "candidate" || i.kind === "box") && next.get(i.el) !== null;
      next.set(i.el, leaf ? [node.frame.width, node.frame.height] : null);
    }
    if (document.documentElement) next.set(document.documentElement, null);
    for (const el of observed) if (!next.has(el)) { resizeObserver.unobserve(el); sizeRead.delete(el); }
    for (const [el, size] of next) {
      if (observed.has(el)) continue;
      if (size) sizeRead.set(el, size);
      else { const rect = el.getBoundingClientRect(); sizeRead.set(el, [rect.width, rect.height]); }
      resizeObserver.observe(el);
    }
    observed = new Set(next.keys());
  }

  // --- Reading only what changed -------------------------------------------------------------
  //
  // Which part of the page a notice makes the agent read again (docs/adapter-decisions.md,
  // "The incremental page agent"):
  // - an attribute changed on E (class, style, hidden, inert, disabled, tabindex, role, …): E's
  //   subtree, since any of them can change every descendant's candidacy or box;
  // - elements added: each one's subtree; text added or removed: its parent element's;
  // - elements removed: their nodes go (and an element moved elsewhere is read at its new place);
  //   a `summary` added or removed: its `details` (which summary is first);
  // - a `<style>`/`<link>` changed, `<html>` or `<body>` changed, the window resized, the modal
  //   dialog changed, more than BURST_LIMIT subtrees in one burst: the whole page;
  // - and on every pass, every node's box (and each scroll container's sizes) read again: a
  //   reflow moves boxes without any notice. A candidate whose box became empty, or a container
  //   that stopped overflowing, has its subtree read again.
  // A change that CSS alone carries to elements outside these subtrees (sibling combinators,
  // :has(), a non-candidate starting to overflow) is caught by a whole read at the next idle
  // time, compared with the scene kept (`verify`).

  /** The element of the top document that stands for `el` (a shadow root's host, a frame's iframe). */
  function topOf(el) {
    for (;;) {
      const root = el.getRootNode();
      if (root === document || !root) return el;
      const up = root.host ?? root.defaultView?.frameElement;
      if (!up) return el;
      el = up;
    }
  }

  function markDirty(el) {
    if (!el) return;
    if (el.nodeType === 11) el = el.host ?? el.defaultView?.frameElement;  // a shadow root's children: its host's subtree
    if (!el || el.nodeType !== 1) { pending.whole = true; return; }
    const tag = el.localName;
    if (tag === "style" || tag === "link" || tag === "html" || tag === "body") { pending.whole = true; return; }
    pending.dirty.add(el);
  }

  function note(records) {
    // Before DOMContentLoaded the notices are the parser's: the first scene is a whole read anyway.
    if (!ready || pending.whole) return;
    for (const record of records) {
      const target = record.target;
      if (target.nodeType === 9) { pending.whole = true; return; }
      if (record.type === "attributes") {
        markDirty(target);
      } else {
        for (const added of record.addedNodes) {
          if (added.nodeType === 1) { markDirty(added); if (added.localName === "summary") markDirty(target); }
          else if (added.nodeType === 3) markDirty(target);
        }
        for (const removed of record.removedNodes) {
          if (removed.nodeType === 1) {
            pending.removed.add(removed);
            const tag = removed.localName;
            if (tag === "summary") markDirty(target);
            if (tag === "style" || tag === "link") pending.whole = true;
          } else if (removed.nodeType === 3) markDirty(target);
        }
      }
      if (pending.dirty.size + pending.removed.size > BURST_LIMIT) pending.whole = true;
      if (pending.whole) return;
    }
  }

  /** Takes `node` (and its subtree) out of the maps; its parent's list is the caller's. */
  function forget(node, gone) {
    const i = info.get(node);
    if (!i) return;
    info.delete(node);
    gone.add(node);
    if (byId.get(node.id) === i.el) byId.delete(node.id);
    if (structural.get(i.el) === node) structural.delete(i.el);
    if (idByElement.get(i.el) === node.id) idByElement.delete(i.el);
    if (node.children) for (const child of node.children) forget(child, gone);
  }

  /**
   * The change since the scene last sent, read from what the notices name (above): the tree kept
   * in place, and the message that tells the adapter. null: read the whole page instead.
   */
  function update(notes) {
    origins = new Map();
    const modal = openModal();
    if (modal !== lastModal) return null;
    const rootNow = readRoot();
    const touched = new Set();     // parents whose children changed
    const gone = new Set();        // nodes taken out
    const changed = new Set();     // nodes kept whose own fields (a frame, a container's sizes) changed
    readNow = new Set();
    let fresh_ = null;
    try {
      // 1. Removed elements: their nodes go. One moved elsewhere is read again where it is now.
      if (notes.removed.size) {
        const moved = [...notes.removed].filter((el) => el.isConnected);
        for (const el of moved) notes.dirty.add(el);
        for (const [node, i] of info) {
          if (!i.el || gone.has(node)) continue;
          if (!i.el.isConnected || (moved.length && moved.some((m) => m.contains(topOf(i.el))))) {
            touched.add(i.parent);
            forget(node, gone);
          }
        }
        for (const parent of touched) parent.children = parent.children.filter((child) => !gone.has(child));
      }
      // 2. The subtrees named, topmost first; then those the boxes' pass finds (one more round).
      let dirty = notes.dirty;
      for (let round_ = 0; round_ === 0 || dirty.size; round_++) {
        if (round_ > 1) return null;
        if (!reread(dirty, touched, gone, modal)) return null;
        for (const node of gone) changed.delete(node);
        dirty = boxes(changed);
      }
    } finally {
      fresh_ = readNow;
      readNow = null;
    }
    // A section left with no children goes, as a whole read leaves it out (unless marked or modal).
    for (const parent of touched) {
      if (parent === tree || gone.has(parent) || (parent.children && parent.children.length)) continue;
      const i = info.get(parent);
      if (parent.modal || hasMarks(i.el)) { delete parent.children; continue; }
      const up = i.parent;
      up.children = up.children.filter((child) => child !== parent);
      forget(parent, gone);
      touched.add(up);  // (a Set visits what is added while it is iterated)
      if (changed) changed.delete(parent);
    }
    if (tree.children && !tree.children.length) delete tree.children;
    for (const node of gone) changed.delete(node);
    return { rootNow, touched, gone, changed, fresh: fresh_ };
  }

  /** Reads again each topmost element of `dirty` into its place; false: read the whole page. */
  function reread(dirty, touched, gone, modal) {
    const body = document.body;
    const tops = new Set();
    for (const el of dirty) {
      let top = topOf(el);
      if (!top.isConnected) continue;
      if (!body || !body.contains(top)) continue;  // in <head>: a title, a script
      // Above it, a section or container the scene does not have yet (an empty nav getting a
      // link, an element starting to overflow): that one is read whole.
      for (let up = top.parentElement; up && up !== body; up = up.parentElement) {
        const node = structural.get(up);
        if (node && info.has(node)) break;
        if (wouldBeStructural(up, modal)) top = up;
      }
      if (top === body || top === document.documentElement) return false;
      tops.add(top);
    }
    for (const el of tops) {
      let up = el.parentElement, covered = false;
      while (up && !covered) { covered = tops.has(up); up = up.parentElement; }
      if (covered) tops.delete(el);
    }
    const ordered = [...tops];
    for (const el of ordered) {
      // The node its subtree's nodes go under: the nearest section, container or dialog above it.
      let owner = tree, ctx = DOCUMENT, inert = false;
      for (let up = el.parentElement; up && up !== body; up = up.parentElement) {
        const node = structural.get(up);
        if (node && info.has(node)) { owner = node; ctx = info.get(node).inner; break; }
      }
      for (let up = el.parentElement; up && !inert; up = up.parentElement) inert = up.inert;
      owner.children ??= [];
      const children = owner.children;
      // Its nodes as they stand: a run of the owner's children (document order).
      let first = -1, last = -1;
      for (let index = 0; index < children.length; index++) {
        const top = topOf(info.get(children[index]).el);
        if (top === el || el.contains(top)) {
          if (first < 0) first = index;
          else if (last !== index - 1) return false;  // not one run: not in document order
          last = index;
        }
      }
      let at = first;
      if (first < 0) {
        // New here: before the first node that follows it in document order.
        at = children.length;
        for (let index = 0; index < children.length; index++) {
          const other = info.get(children[index]).el;
          const top = topOf(other);
          if (top !== other && (top === el || top.contains(el) || el.contains(top))) return false;  // a shadow root or frame there: order unclear
          if (el.compareDocumentPosition(top) & Node.DOCUMENT_POSITION_FOLLOWING && !top.contains(el)) { at = index; break; }
        }
      }
      const old = first < 0 ? [] : children.slice(first, last + 1);
      for (const node of old) forget(node, gone);
      const into = { children: [] };
      if (!inert) visit(el, into, ctx, modal);
      for (const node of into.children) info.get(node).parent = owner;
      children.splice(at, old.length, ...into.children);
      if (old.length || into.children.length) touched.add(owner);
    }
    return true;
  }

  /** Whether a whole read would make `el` a node with children of its own. */
  function wouldBeStructural(el, modal) {
    const role = el.getAttribute("role");
    if (el === modal || el.localName === "nav" || SECTION_ROLES.has(role) || isMainLandmark(el.localName, role)) return true;
    const marked = el.hasAttribute("data-focus-scroll");
    return mayContain(el, marked) && el.checkVisibility() && readContainer(el, { x: 0, y: 0 }, marked) !== null;
  }

  /**
   * Every node's box read again (a reflow moves boxes without a notice); the nodes read in this
   * pass are new already. Returns the elements to read again (a candidate with an empty box now,
   * a container that stopped overflowing), or null to read the whole page.
   */
  function boxes(changed) {
    const again = new Set();
    for (const [node, i] of info) {
      if (readNow.has(node) || i.kind === "none" || i.kind === "root") continue;
      const origin = originOf(i.ctx);
      if (i.kind === "candidate") {
        const rect = candidateRect(i.el);
        if (!(rect.width > 0 && rect.height > 0)) { again.add(i.el); continue; }
        const frame = frameOf(rect, origin);
        if (!sameFrame(frame, node.frame)) { node.frame = frame; changed.add(node); }
      } else if (i.kind === "box") {
        const frame = frameOf(i.el.getBoundingClientRect(), origin);
        if (!sameFrame(frame, node.frame)) { node.frame = frame; changed.add(node); }
      } else if (i.kind === "client") {
        const now = readContainer(i.el, origin, hasMarks(i.el));
        if (!now || now.scroll.axis !== node.scroll.axis) { again.add(i.el); continue; }
        if (!sameFrame(now.frame, node.frame)) { node.frame = now.frame; changed.add(node); }
        const scroll = node.scroll;
        if (scroll.contentWidth !== now.scroll.contentWidth || scroll.contentHeight !== now.scroll.contentHeight
          || scroll.policy !== now.scroll.policy || scroll.margin !== now.scroll.margin) {
          now.scroll.offsetX = scroll.offsetX;
          now.scroll.offsetY = scroll.offsetY;
          node.scroll = now.scroll;
          changed.add(node);
        }
      }
    }
    return again;
  }

  function sameFrame(a, b) {
    return b && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  }

  // --- Keeping up ----------------------------------------------------------------------------

  function schedule() {
    if (!ready || scheduled) return;
    scheduled = true;
    queueMicrotask(() => { if (scheduled) flush(); });
  }

  /** Every scroll object of the tree (the root's first). */
  function scrollsOf(node, into = []) {
    if (node.scroll) into.push(node.scroll);
    if (node.children) for (const child of node.children) scrollsOf(child, into);
    return into;
  }

  /** The scene's text without scroll offsets (set aside: a replacer function costs ~10× more). */
  function structureOf(root) {
    const scrolls = scrollsOf(root);
    const saved = scrolls.map((scroll) => [scroll.offsetX, scroll.offsetY]);
    for (const scroll of scrolls) scroll.offsetX = scroll.offsetY = undefined;
    try {
      return JSON.stringify(root);
    } finally {
      scrolls.forEach((scroll, index) => { [scroll.offsetX, scroll.offsetY] = saved[index]; });
    }
  }

  /** [id, x, y] of every scroll container, as the page is scrolled now (the tree's offsets set to them). */
  function offsetsNow() {
    const offsets = [[ROOT_ID, round(scrollX), round(scrollY)]];
    if (tree) { tree.scroll.offsetX = offsets[0][1]; tree.scroll.offsetY = offsets[0][2]; }
    for (const [node, i] of info) {
      if (!node.scroll || !i.el) continue;
      node.scroll.offsetX = round(i.el.scrollLeft);
      node.scroll.offsetY = round(i.el.scrollTop);
      offsets.push([node.id, node.scroll.offsetX, node.scroll.offsetY]);
    }
    return offsets;
  }

  function sameRoot(a, b) {
    const own = (node) => { const { children, scroll, ...rest } = node; const { offsetX, offsetY, ...sizes } = scroll; return JSON.stringify([rest, sizes]); };
    return own(a) === own(b);
  }

  /** HTML's autofocus, done now: the first `[autofocus]` element of the document that is a
   *  candidate takes focus and its id is returned (null when there is none). HTML focuses it at
   *  a rendering update after DOMContentLoaded, and not at all once something has focus: the
   *  scene goes at DOMContentLoaded, and focusd's default focus, applied before that update,
   *  took its place. (Only while nothing has focus and no fragment names a target: as HTML.) */
  function autofocus() {
    const active = document.activeElement;
    if (active && active !== document.body && active !== document.documentElement) return null;
    for (const el of document.querySelectorAll("[autofocus]")) {
      const id = idByElement.get(el);
      if (!id || byId.get(id) !== el) continue;
      applying = el;
      try { el.focus(); } finally { applying = null; }
      return deepActive() === el ? id : null;
    }
    return null;
  }

  /** Sends the whole scene (`root`, the tree kept from now on). */
  function sendScene(root) {
    const message = { t: "scene", url: location.href, seq: ++sequence };
    forced = false;
    if (fresh) {
      message.fresh = true;
      message.focus = activeId();
      const hash = decodeURIComponent(location.hash.slice(1));
      const target = hash ? document.getElementById(hash) : null;
      message.fragment = target ? idByElement.get(target) ?? null : null;
      if (message.focus === null && !target) message.focus = autofocus();
      fresh = false;
    }
    tree = root;
    lastOffsets = JSON.stringify(offsetsNow());
    // The root goes last, as its own text, so the adapter can hand focusd these very bytes in
    // a SetScene instead of encoding the tree again.
    const head = JSON.stringify(message);
    const text = `${head.slice(0, -1)},"root":${JSON.stringify(root)}}`;
    const written = performance.now();
    window[BINDING](text);
    const t = timing ?? {};
    timing = null;
    stats.lastScene = { ready: readyAt, flush: t.flush, layout: t.layout, read: t.read, written, sent: performance.now(), bytes: text.length };
  }

  /** Sends what changed: a patch read from the notices, or the whole scene when it must. */
  function flush() {
    scheduled = false;
    if (!ready) return;
    const notes = pending;
    pending = newPending(false);
    // No binding in this context yet: nothing is sent or marked sent; `retry` sends it once the
    // adapter has installed the binding here.
    if (typeof window[BINDING] !== "function") { unsent = true; pending.whole = true; return; }
    const started = performance.now();
    stats.passes++;
    const change = fresh || !tree || notes.whole ? null : update(notes);
    if (!change) {
      // The page's style and layout, brought up to date by the read's first box anyway, are
      // brought up to date first, so the scene's timing tells the page's own layout from the read.
      document.documentElement?.getBoundingClientRect();
      const laidOut = performance.now();
      const root = read();
      timing = { flush: started, layout: laidOut, read: performance.now() };
      if (fresh || forced || !tree || structureOf(root) !== structureOf(tree)) sendScene(root);
      else { timing = null; tree = root; sendOffsets(); }
      observe();
      return;
    }
    observe();
    if (!sameRoot(change.rootNow, tree)) {
      // focusd cannot patch a root: a new viewport or document size sends the scene kept.
      const { children: _, ...own } = change.rootNow;
      if (tree.children) own.children = tree.children;
      stats.patches++;
      sendScene(replaceRoot(own));
      verifyLater();
      return;
    }
    const message = { t: "patch", seq: 0 };
    const parents = [];
    for (const parent of change.touched) {
      if (change.gone.has(parent) || change.fresh.has(parent)) continue;
      const children = parent.children ?? [];
      parents.push({ id: parent.id, children: children.map((child) => child.id), nodes: children.filter((child) => change.fresh.has(child)) });
    }
    const frames = [], own = [];
    for (const node of change.changed) {
      if (info.get(node).kind === "client") { const { children, ...fields } = node; own.push(fields); }
      else frames.push([node.id, node.frame.x, node.frame.y, node.frame.width, node.frame.height]);
    }
    const offsets = JSON.stringify(offsetsNow());
    if (parents.length) message.parents = parents;
    if (frames.length) message.frames = frames;
    if (own.length) message.own = own;
    if (offsets !== lastOffsets) message.offsets = JSON.parse(offsets);
    lastOffsets = offsets;
    if (!parents.length && !frames.length && !own.length) {
      if (message.offsets) send({ t: "offsets", seq: ++sequence, offsets: message.offsets });
      return;
    }
    message.seq = ++sequence;
    stats.patches++;
    send(message);
    stats.lastPatchMs = Math.round((performance.now() - started) * 100) / 100;
    verifyLater();
  }

  /** `root` in the tree's place (its members in the order a whole read writes them). */
  function replaceRoot(root) {
    info.delete(tree);
    info.set(root, { el: null, parent: null, ctx: DOCUMENT, kind: "root", inner: DOCUMENT });
    for (const child of root.children ?? []) info.get(child).parent = root;
    tree = root;
    return root;
  }

  function sendOffsets() {
    const offsets = JSON.stringify(offsetsNow());
    if (offsets === lastOffsets) return;
    lastOffsets = offsets;
    send({ t: "offsets", seq: ++sequence, offsets: JSON.parse(offsets) });
  }

  // The safety net of the incremental path: once the page has been quiet for VERIFY_QUIET ms
  // after a patch (at most VERIFY_LATEST ms after the first patch not checked), at its next
  // idle time, the whole page is read and compared with the scene kept; a difference (a change
  // CSS carried where no notice named it) sends the whole scene. Not at once: a whole read
  // running beside the adapter and focusd while they apply the patch slowed it (2 cores). An
  // idle page is never read.
  const VERIFY_QUIET = 500, VERIFY_LATEST = 2000;
  let verifyTimer = null;
  let unverifiedSince = 0;
  function verifyLater() {
    const now = performance.now();
    if (!unverifiedSince) unverifiedSince = now;
    if (verifyTimer !== null) clearTimeout(verifyTimer);
    const wait = Math.max(0, Math.min(VERIFY_QUIET, unverifiedSince + VERIFY_LATEST - now));
    verifyTimer = setTimeout(() => {
      verifyTimer = null;
      if (typeof requestIdleCallback === "function") requestIdleCallback(verify); else verify();
    }, wait);
  }

  function verify() {
    unverifiedSince = 0;
    if (scheduled || !ready || !tree || typeof window[BINDING] !== "function") return;
    const kept = structureOf(tree);
    const root = read();
    stats.verified++;
    if (structureOf(root) !== kept) {
      stats.corrections++;
      console.debug("focusd: the scene kept differed from the page; sent whole");
      sendScene(root);
    } else {
      tree = root;
      // The offsets once more, sent or not: focusd's scroll the page took sends none back
      // (`scroll`), so a whole scene focusd took meanwhile with an older offset would leave the
      // two apart; the adapter drops offsets focusd already has.
      lastOffsets = null;
      sendOffsets();
    }
    observe();
  }

  /** The node id of the element holding DOM focus (through open shadow roots), if a candidate. */
  function activeId() {
    const el = deepActive();
    if (!el || el === document.body) return null;
    const id = idByElement.get(el);
    if (!id) return null;
    const node = byId.get(id);
    return node === el ? id : null;
  }

  const mutations = new MutationObserver((records) => { note(records); schedule(); });
  mutations.observe(document, { subtree: true, childList: true, attributes: true, characterData: false });
  addEventListener("scroll", (event) => {
    // The document's scroll focusd asked for: `scroll` sent what it moved already.
    if (event.target === document && !scheduled && lastOffsets !== null && lastOffsets === JSON.stringify(offsetsNow())) return;
    schedule();
  }, { capture: true, passive: true });
  const whole = () => { pending.whole = true; schedule(); };
  const subtree = (event) => { markDirty(event.target); schedule(); };
  addEventListener("resize", whole);  // media queries: anything may change
  // Capturing: a frame's document loading too (its iframe read again); an image loading: its
  // parent (a link around it gets a box).
  addEventListener("load", (event) => {
    const target = event.target;
    if (target === document) {
      // The document's own load: each image, frame and style sheet had a notice of its own; what
      // none named is the idle-time whole read's to find (`verify`). Read whole now, it ran beside
      // the adapter and focusd taking the first scene (the benchmark's page loads at once).
      if (tree) verifyLater();
      return;
    }
    markDirty(target && target.nodeType === 1 && target.localName !== "iframe" ? target.parentElement : target);
    schedule();
  }, true);
  addEventListener("transitionend", subtree, true);
  addEventListener("animationend", subtree, true);
  addEventListener("toggle", subtree, true);
  addEventListener("close", subtree, true);
  addEventListener("pageshow", (event) => { if (event.persisted) { fresh = true; whole(); } });
  function focusIn(event) {
    if (applying && (event.target === applying || deepActive() === applying)) return;
    // Mutations whose notice has not run yet (the observer runs at the next microtask, and a
    // dialog's close() gives focus back to its opener synchronously, inside the call that closed
    // it): noted now, so the scene without the dialog reaches focusd before the focus that refers
    // to it, and focusd does not recover focus elsewhere from the dialog it still holds.
    const undelivered = mutations.takeRecords();
    if (undelivered.length) { note(undelivered); schedule(); }
    // The scene the focus refers to goes first: pending changes, or an element the last scene
    // did not have (a dialog closing gives focus back to its opener before any mutation notice).
    // (nodeType, not instanceof: a frame's elements are of its own realm.)
    if (scheduled || (event.target && event.target.nodeType === 1 && !idByElement.has(event.target))) flush();
    const id = activeId();
    if (id === null && !byId.size) return;
    send({ t: "focus", id, seq: ++focusReports });
  }
  addEventListener("focusin", focusIn, true);
  addEventListener("focusout", (event) => {
    // Focus leaving for nothing (the element removed or blurred): focusd decides (recovery).
    if (event.relatedTarget) return;
    queueMicrotask(() => {
      if (document.activeElement && document.activeElement !== document.body) return;
      if (scheduled) flush();
    });
  }, true);
  document.addEventListener("visibilitychange", () => send({ t: "visibility", visible: document.visibilityState === "visible" }));
  let readyAt = null;
  const start = () => { readyAt = performance.now(); ready = true; schedule(); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();

  // --- Applying what the adapter asks --------------------------------------------------------

  function element(id) {
    const el = byId.get(id);
    return el && el.isConnected ? el : null;
  }

  function focusTarget(id) {
    const el = element(id.endsWith(":self") ? id.slice(0, -5) : id);
    return el;
  }

  window.__focusd = {
    /** focusd's focus: DOM focus without scrolling, shown as :focus-visible. Not applied when the
     *  page moved focus itself after the last report the adapter had read (`seen`): that newer
     *  report is on its way and focusd will follow it, so applying this older focus would take
     *  focus from where the page put it. */
    focus(id, seen) {
      if (typeof seen === "number" && focusReports > seen) return { ok: false, moved: true, active: activeId() };
      const el = focusTarget(id);
      if (!el) return { ok: false, active: activeId() };
      applying = el;
      try { el.focus({ preventScroll: true, focusVisible: true }); } finally { applying = null; }
      return { ok: deepActive() === el, active: activeId() };
    },
    blur() {
      const el = document.activeElement;
      if (el && el !== document.body) el.blur();
      return { ok: true, active: activeId() };
    },
    scroll(id, x, y) {
      const el = id === ROOT_ID ? null : element(id);
      if (id === ROOT_ID && inBar(deepActive())) {
        // Focus on a fixed (or sticky) bar: the bar moves with the viewport, so scrolling the
        // document to show it (the root's margin, `obscured`) only moves the content under it.
        // The document stays; its offset goes back to focusd as the page's own.
        lastOffsets = null;
        schedule();
        return false;
      }
      if (id === ROOT_ID) window.scrollTo({ left: x, top: y, behavior: "instant" });
      else el?.scrollTo({ left: x, top: y, behavior: "instant" });
      // focusd's own offset, where the page took it: the scroll event's pass sends no offsets back.
      // Sent back, it came after focusd's next scroll (moves quicker than a frame) and took focusd
      // back to the older offset, which the page then applied: focus under a bar, off screen.
      const [nowX, nowY] = id === ROOT_ID ? [scrollX, scrollY] : el ? [el.scrollLeft, el.scrollTop] : [NaN, NaN];
      if (tree && round(nowX) === round(x) && round(nowY) === round(y)) lastOffsets = JSON.stringify(offsetsNow());
      // What moved with the scroll (a fixed bar's frame in document coordinates) goes now, not at
      // the scroll event a frame later: focusd's next move finds the bars where they are.
      if (ready && tree && id === ROOT_ID) flush();
      return true;
    },
    activate(id) {
      const el = focusTarget(id);
      if (!el) return false;
      el.click();
      return true;
    },
    edit(id, detents) {
      const el = focusTarget(id);
      if (!el || el.localName !== "input" || !detents) return false;
      const before = el.value;
      try {
        if (detents > 0) el.stepUp(detents); else el.stepDown(-detents);
      } catch { return false; }
      if (el.value !== before) {
        const view = el.ownerDocument.defaultView || window;  // a frame's element: its realm's events
        el.dispatchEvent(new view.Event("input", { bubbles: true, composed: true }));
        el.dispatchEvent(new view.Event("change", { bubbles: true }));
      }
      return true;
    },
    /** A command as the key of the UI Events key values; `back` closes a modal dialog first. */
    key(key, back) {
      if (back) {
        // An open menu (an `auto` popover, top layer, opened after any modal dialog, which closes
        // them as it opens): back closes it as Escape does, instead of leaving the page.
        const popover = openPopover();
        if (popover) {
          popover.hidePopover();
          return "popover";
        }
        const modal = openModal();
        if (modal && modal.localName === "dialog") {
          if (typeof modal.requestClose === "function") modal.requestClose();
          else if (modal.dispatchEvent(new Event("cancel", { cancelable: true }))) modal.close();
          return "dialog";
        }
        // A dialog of the page's own script: an `aria-modal` one, or one (role `dialog` or
        // `alertdialog`) that holds focus. Such scripts close it on Escape (jQuery UI, Bootstrap),
        // so back is Escape there, with the legacy keyCode that older ones read, and never leaves
        // the page from inside a dialog.
        const active = deepActive();
        const scripted = modal || active?.closest('[role="dialog"], [role="alertdialog"]');
        if (scripted) {
          press(active && scripted.contains(active) ? active : scripted, { key: "Escape", code: "Escape", keyCode: 27, which: 27 });
          return "escape";
        }
      }
      const proceed = press(deepActive() || document.body || document.documentElement, { key, code: "" });
      if (back && proceed) {
        if (history.length > 1) { history.back(); return "history"; }
        return "none";
      }
      return proceed ? "delivered" : "cancelled";
    },
    /** How long reading the scene takes, and its parts (ms), for benchmarks. */
    profile() {
      const t0 = performance.now();
      const root = read();
      observe();
      const t1 = performance.now();
      const structure = structureOf(root);
      const t2 = performance.now();
      const text = JSON.stringify({ t: "profile", root });
      const t3 = performance.now();
      pending.whole = true;  // the maps now describe this read, not the scene sent: the next pass reads whole
      return { read: t1 - t0, structure: t2 - t1, stringify: t3 - t2, bytes: text.length };
    },
    /** Sends the whole scene read again (the adapter found a gap in the messages' sequence). */
    whole() {
      pending.whole = true;
      forced = true;
      if (!ready) return false;
      flush();
      return true;
    },
    /** How the scene was kept: whole reads, patches, idle verifications, corrections they made. */
    stats() { return { ...stats, focusReports }; },
    /** Sends the scene a missing binding held back, if any. */
    retry() {
      if (!unsent) return false;
      unsent = false;
      flush();
      return true;
    },
    /** Sends the whole scene again (after the adapter reconnected to the page). */
    resend() {
      pending.whole = true;
      fresh = true;
      if (!ready) return false;
      flush();
      return true;
    },
  };
})();
