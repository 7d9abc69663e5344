// focusd-adapter's page agent (adapters.md §2): injected into every document of a page target
// (Page.addScriptToEvaluateOnNewDocument). It reads the page's scene, keeps it current from the
// page's own notices, and applies what the adapter asks. It talks to the adapter through the
// binding `__focusdNotify` (Runtime.addBinding): one JSON message per call.
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
  const SECTION_ROLES = new Set(["toolbar", "tablist", "menubar", "listbox", "radiogroup", "grid", "tree"]);
  // Roving-tabindex widgets: the items of the role each owns are candidates even at tabindex=-1.
  const OWNED = { tablist: ["tab"], grid: ["gridcell", "row"], treegrid: ["gridcell", "row"], listbox: ["option"],
    menu: ["menuitem", "menuitemcheckbox", "menuitemradio"], menubar: ["menuitem", "menuitemcheckbox", "menuitemradio"],
    tree: ["treeitem"], radiogroup: ["radio"] };
  const OWNED_BY = {};
  for (const [widget, roles] of Object.entries(OWNED)) for (const role of roles) (OWNED_BY[role] ??= []).push(widget);
  const TEXT_TYPES = new Set(["text", "email", "password", "url", "tel", ""]);
  const round = (v) => Math.round(v * 100) / 100;

  const generated = new WeakMap();
  let generatedCount = 0;
  let byId = new Map();        // node id → element, as of the last scene
  let idByElement = new WeakMap();
  let lastStructure = null;    // the last scene sent, offsets left out
  let lastOffsets = null;
  let containers = [];         // [id, element|null] of every scroll container sent
  let scrolls = [];            // the `scroll` objects of the last scene read (root's first)
  let fresh = true;            // the document's first scene not yet sent
  let ready = false;           // DOMContentLoaded seen: scenes may be sent
  let scheduled = false;
  let applying = null;         // the element the adapter is focusing (its focusin is not echoed)
  let unsent = false;          // a scene found no binding to send through
  let focusReports = 0;        // focus reports sent: the adapter says which it had seen when it applies focus
  let observed = new Set();

  const send = (message) => {
    const binding = window[BINDING];
    if (typeof binding === "function") binding(JSON.stringify(message));
  };

  // --- Reading the scene ---------------------------------------------------------------------

  function hasMarks(el) {
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

  /** Whether HTML's sequential focus navigation reaches `el` (rendering checked apart). */
  function sequentiallyFocusable(el) {
    const index = tabindex(el);
    const role = el.getAttribute("role");
    if (role && OWNED_BY[role] && OWNED_BY[role].some((w) => el.parentElement?.closest(`[role="${w}"]`))) return true;
    if (index !== null && index < 0) return false;
    let natural = false;
    switch (el.localName) {
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
    if (el.matches(":disabled")) return false;
    return true;
  }

  function idOf(el, used) {
    const given = el.getAttribute("data-focus-id") || el.id;
    if (given && given !== ROOT_ID && !used.has(given)) return given;
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

  function openModal() {
    const dialogs = document.querySelectorAll("dialog:modal");
    if (dialogs.length) return dialogs[dialogs.length - 1];
    const marked = [...document.querySelectorAll('[aria-modal="true"]')].filter((el) => el.checkVisibility({ visibilityProperty: true }));
    return marked.length ? marked[marked.length - 1] : null;
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

  /** The whole scene, and what the adapter needs beside it. */
  function read() {
    const used = new Set();
    const elements = new Map();
    const ids = new WeakMap();
    const found = [];
    containers = [[ROOT_ID, null]];
    const scroller = document.scrollingElement || document.documentElement;
    const rootStyle = scroller ? getComputedStyle(scroller) : null;
    const viewportWidth = document.documentElement.clientWidth || innerWidth;
    const viewportHeight = document.documentElement.clientHeight || innerHeight;
    const contentWidth = scroller ? Math.max(scroller.scrollWidth, viewportWidth) : viewportWidth;
    const contentHeight = scroller ? Math.max(scroller.scrollHeight, viewportHeight) : viewportHeight;
    const scrollsX = contentWidth > viewportWidth && rootStyle?.overflowX !== "hidden";
    const scrollsY = contentHeight > viewportHeight && rootStyle?.overflowY !== "hidden";
    const root = {
      id: ROOT_ID,
      frame: { x: 0, y: 0, width: round(innerWidth), height: round(innerHeight) },
      scroll: {
        axis: scrollsX && !scrollsY ? "horizontal" : scrollsY && !scrollsX ? "vertical" : "both",
        contentWidth: round(contentWidth), contentHeight: round(contentHeight),
        offsetX: round(scrollX), offsetY: round(scrollY),
      },
      children: [],
    };
    if (rootStyle && document.body) scrollStyle(document.body, rootStyle, root.scroll);
    scrolls = [root.scroll];
    const modal = openModal();

    const add = (el, node) => {
      elements.set(node.id, el);
      ids.set(el, node.id);
      used.add(node.id);
    };

    const visit = (el, parent, origin) => {
      const tag = el.localName;
      if (tag === "script" || tag === "style" || tag === "template" || tag === "head" || tag === "noscript") return;
      if (el.inert) return;
      if (modal && el !== modal && !modal.contains(el) && !el.contains(modal)) return;
      if (!el.checkVisibility()) {
        // No box: display:none (the subtree is not rendered) or content-visibility:hidden, but
        // display:contents keeps its children's boxes.
        if (getComputedStyle(el).display === "contents") for (const child of el.children) visit(child, parent, origin);
        return;
      }
      const marked = hasMarks(el);
      const role = el.getAttribute("role");
      let style = null;
      const computed = () => (style ??= getComputedStyle(el));
      let scroll = null;
      if (el !== scroller && el !== document.body && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)) {
        scroll = scrollInfo(el, computed());
      }
      if (marked && el.hasAttribute("data-focus-scroll") && !scroll) {
        scroll = { axis: el.getAttribute("data-focus-scroll") || "both", contentWidth: round(el.scrollWidth), contentHeight: round(el.scrollHeight),
          offsetX: round(el.scrollLeft), offsetY: round(el.scrollTop) };
      }
      const isModal = el === modal;
      const isSection = !scroll && !isModal && (tag === "nav" || SECTION_ROLES.has(role));
      if (scroll || isModal || isSection) {
        const node = { id: idOf(el, used) };
        add(el, node);
        const rect = el.getBoundingClientRect();
        let childOrigin = origin;
        if (scroll) {
          node.frame = { x: round(rect.left + el.clientLeft - origin.x), y: round(rect.top + el.clientTop - origin.y),
            width: round(el.clientWidth), height: round(el.clientHeight) };
          node.section = true;
          node.remembersLastFocus = true;
          node.scroll = scroll;
          childOrigin = { x: rect.left + el.clientLeft - el.scrollLeft, y: rect.top + el.clientTop - el.scrollTop };
          containers.push([node.id, el]);
          scrolls.push(scroll);
        } else if (isModal) {
          node.frame = frameOf(rect, origin);
          node.section = true;
          node.modal = true;
        } else {
          node.section = true;
        }
        if (marked) applyMarks(el, node);
        node.children = [];
        if (sequentiallyFocusable(el) && el.checkVisibility({ visibilityProperty: true })) {
          // A focusable scroller or dialog: the element itself is a candidate inside its node.
          const self = candidate(el, childOrigin, used, `${node.id}:self`);
          if (self) { node.children.push(self); add(el, self); found.push(el); }
        }
        for (const child of el.children) visit(child, node, childOrigin);
        if (el.shadowRoot) { watch(el.shadowRoot); for (const child of el.shadowRoot.children) visit(child, node, childOrigin); }
        if (node.children.length || marked || isModal) {
          if (!node.children.length) delete node.children;
          parent.children.push(node);
          found.push(el);
        }
        return;
      }
      if (tag === "iframe") {
        // A same-origin frame: its elements as if they were the iframe's, frames offset by the
        // iframe's content box (its document's own scrolling is in its elements' boxes).
        const inner = frameDocument(el);
        if (inner && inner.body) {
          const rect = el.getBoundingClientRect();
          const style = computed();
          const innerOrigin = { x: origin.x - rect.left - el.clientLeft - (parseFloat(style.paddingLeft) || 0),
            y: origin.y - rect.top - el.clientTop - (parseFloat(style.paddingTop) || 0) };
          watch(inner);
          visit(inner.body, parent, innerOrigin);
        }
        return;
      }
      let node = null;
      if (sequentiallyFocusable(el) && el.checkVisibility({ visibilityProperty: true })) node = candidate(el, origin, used);
      if (!node && marked) {
        node = { id: idOf(el, used), frame: frameOf(el.getBoundingClientRect(), origin) };
      }
      if (node) {
        if (marked) applyMarks(el, node);
        add(el, node);
        parent.children.push(node);
        found.push(el);
      }
      // Candidates nested in candidates are the enclosing node's siblings (candidates are leaves).
      for (const child of el.children) visit(child, parent, origin);
      if (el.shadowRoot) { watch(el.shadowRoot); for (const child of el.shadowRoot.children) visit(child, parent, origin); }
    };

    if (document.body) visit(document.body, root, { x: -scrollX, y: -scrollY });
    if (!root.children.length) delete root.children;
    if (document.body && hasMarks(document.body)) applyMarks(document.body, root);
    byId = elements;
    idByElement = ids;
    observe(found);
    return root;
  }

  /** A candidate's node (frame: its border box, or its label's for a visually hidden control). */
  function candidate(el, origin, used, selfId) {
    let rect = el.getBoundingClientRect();
    if (rect.width <= 1 && rect.height <= 1 && el.labels && el.labels.length) {
      const label = el.labels[0].getBoundingClientRect();
      if (label.width > 0 && label.height > 0) rect = label;
    }
    if (!(rect.width > 0 && rect.height > 0)) return null;
    const node = { id: selfId ?? idOf(el, used), frame: frameOf(rect, origin), focusable: true };
    const tag = el.localName;
    const type = tag === "input" ? (el.getAttribute("type") || "").toLowerCase() : null;
    const role = el.getAttribute("role");
    if (type === "search" || role === "searchbox") node.role = "search";
    else if (tag === "textarea" || (tag === "input" && TEXT_TYPES.has(type)) || (el.isContentEditable && tag !== "input")) node.role = "text";
    if (type === "range" || type === "number") node.interactions = ["activate", "edit"];
    return node;
  }

  const resizeObserver = new ResizeObserver(() => schedule());
  function observe(elements) {
    const next = new Set(elements);
    if (document.documentElement) next.add(document.documentElement);
    for (const el of observed) if (!next.has(el)) resizeObserver.unobserve(el);
    for (const el of next) if (!observed.has(el)) resizeObserver.observe(el);
    observed = next;
  }

  // --- Keeping up ----------------------------------------------------------------------------

  function schedule() {
    if (!ready || scheduled) return;
    scheduled = true;
    queueMicrotask(() => { if (scheduled) flush(); });
  }

  /** The scene's text without scroll offsets (set aside: a replacer function costs ~10× more). */
  function structureOf(root) {
    const saved = scrolls.map((scroll) => [scroll.offsetX, scroll.offsetY]);
    for (const scroll of scrolls) scroll.offsetX = scroll.offsetY = undefined;
    try {
      return JSON.stringify(root);
    } finally {
      scrolls.forEach((scroll, index) => { [scroll.offsetX, scroll.offsetY] = saved[index]; });
    }
  }

  function offsetsNow() {
    return containers.map(([id, el]) => el ? [id, round(el.scrollLeft), round(el.scrollTop)] : [id, round(scrollX), round(scrollY)]);
  }

  /** Sends what changed: the whole scene when anything but offsets did, else the offsets. */
  function flush() {
    scheduled = false;
    if (!ready) return;
    // No binding in this context yet: nothing is sent or marked sent; `retry` sends it once the
    // adapter has installed the binding here.
    if (typeof window[BINDING] !== "function") { unsent = true; return; }
    const root = read();
    const structure = structureOf(root);
    const offsets = JSON.stringify(offsetsNow());
    if (structure !== lastStructure || fresh) {
      const message = { t: "scene", url: location.href };
      if (fresh) {
        message.fresh = true;
        message.focus = activeId();
        const hash = decodeURIComponent(location.hash.slice(1));
        const target = hash ? document.getElementById(hash) : null;
        message.fragment = target ? idByElement.get(target) ?? null : null;
        fresh = false;
      }
      lastStructure = structure;
      lastOffsets = offsets;
      // The root goes last, as its own text, so the adapter can hand focusd these very bytes in
      // a SetScene instead of encoding the tree again.
      const head = JSON.stringify(message);
      const binding = window[BINDING];
      if (typeof binding === "function") binding(`${head.slice(0, -1)},"root":${JSON.stringify(root)}}`);
    } else if (offsets !== lastOffsets) {
      lastOffsets = offsets;
      send({ t: "offsets", offsets: JSON.parse(offsets) });
    }
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

  const mutations = new MutationObserver(() => schedule());
  mutations.observe(document, { subtree: true, childList: true, attributes: true, characterData: false });
  addEventListener("scroll", () => schedule(), { capture: true, passive: true });
  addEventListener("resize", () => schedule());
  addEventListener("load", () => schedule(), true);  // capturing: a frame's document loading too
  addEventListener("hashchange", () => schedule());
  addEventListener("transitionend", () => schedule(), true);
  addEventListener("animationend", () => schedule(), true);
  addEventListener("toggle", () => schedule(), true);
  addEventListener("close", () => schedule(), true);
  addEventListener("pageshow", (event) => { if (event.persisted) { fresh = true; lastStructure = null; schedule(); } });
  function focusIn(event) {
    if (applying && (event.target === applying || deepActive() === applying)) return;
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
  const start = () => { ready = true; schedule(); };
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
      if (id === ROOT_ID) window.scrollTo({ left: x, top: y, behavior: "instant" });
      else element(id)?.scrollTo({ left: x, top: y, behavior: "instant" });
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
        const modal = openModal();
        if (modal && modal.localName === "dialog") {
          if (typeof modal.requestClose === "function") modal.requestClose();
          else if (modal.dispatchEvent(new Event("cancel", { cancelable: true }))) modal.close();
          return "dialog";
        }
      }
      const target = deepActive() || document.body || document.documentElement;
      const init = { key, code: "", bubbles: true, cancelable: true, composed: true };
      const view = target.ownerDocument?.defaultView || window;
      const proceed = target.dispatchEvent(new view.KeyboardEvent("keydown", init));
      target.dispatchEvent(new view.KeyboardEvent("keyup", init));
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
      const t1 = performance.now();
      const structure = structureOf(root);
      const t2 = performance.now();
      const text = JSON.stringify({ t: "profile", root });
      const t3 = performance.now();
      return { read: t1 - t0, structure: t2 - t1, stringify: t3 - t2, bytes: text.length };
    },
    /** Sends the scene a missing binding held back, if any. */
    retry() {
      if (!unsent) return false;
      unsent = false;
      flush();
      return true;
    },
    /** Sends the whole scene again (after the adapter reconnected to the page). */
    resend() {
      lastStructure = null;
      fresh = true;
      if (!ready) return false;
      flush();
      return true;
    },
  };
})();
