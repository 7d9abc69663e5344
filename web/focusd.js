// focusd.js: tvOS focus for a web page, driven by every remote, pad and knob focusd reads.
//
// One ES module, no build step, no dependencies. A page writes three lines:
//
//   import { connect, bindScene } from "./focusd.js";
//   const client = connect("ws://127.0.0.1:7341");
//   const scene = bindScene(client, document.querySelector("#app"), { name: "home" });
//
// and marks its elements with data-focus… attributes (see docs/web.md). The client
// speaks Varlink over WebSocket (one message per text frame, service.md §3); the binding turns the
// marked elements into a scene, keeps it current with UpdateScene as the page lays out, and applies
// focus, scrolling, activation and lazy-list requests that focusd sends back.

/**
 * @typedef {{x: number, y: number, width: number, height: number}} Rect
 * @typedef {{name: string, isTrue?: boolean|null, value?: string|null}} BindingState
 * @typedef {{scene: string, active: boolean, focused?: string|null, path: string[],
 *   bindings: BindingState[], focusedValues: Record<string,string>, sceneValues: Record<string,string>,
 *   focusEffectEnabled: boolean, scroll?: {node: string, offsetX: number, offsetY: number}[], revision: number}} FocusState
 * @typedef {{kind: string, scene: string, revision: number, from?: string, to?: string, cause?: object,
 *   detents?: number, command?: string, bindings?: BindingState[], values?: Record<string,string>,
 *   node?: string, offsetX?: number, offsetY?: number, index?: number}} FocusEvent
 * @typedef {{token?: string, minDelay?: number, maxDelay?: number, WebSocket?: typeof WebSocket}} ConnectOptions
 */

/** A Varlink error reply, as an exception. */
export class VarlinkError extends Error {
  /** @param {string} name @param {object} parameters */
  constructor(name, parameters) {
    super(`${name} ${JSON.stringify(parameters ?? {})}`);
    /** The error's qualified name, e.g. `io.focusd.Focus.NoSuchNode`. */
    this.name = name;
    /** The error's parameters. */
    this.parameters = parameters ?? {};
  }
}

/** The connection is gone (a call in flight when it closed, or made while it was down). */
export class ConnectionError extends Error {}

function openSocket(url, options) {
  const protocols = options.token ? [`focusd.token.${options.token}`] : [];
  const Socket = options.WebSocket ?? globalThis.WebSocket;
  return new Socket(url, protocols);
}

/**
 * A connection to focusd that reconnects by itself (back-off from `minDelay` to `maxDelay` ms,
 * with jitter). Calls are answered in order; a call made while disconnected fails with
 * {@link ConnectionError}. Events: `open` (after every (re)connect: set the scene again then),
 * `close`.
 */
export class FocusdClient extends EventTarget {
  /** @param {string} url `ws://HOST:PORT` @param {ConnectOptions} [options] */
  constructor(url, options = {}) {
    super();
    this.url = url;
    this.options = { minDelay: 250, maxDelay: 10000, ...options };
    /** @type {WebSocket|null} */
    this.socket = null;
    /** Whether the socket is open. */
    this.connected = false;
    this._pending = [];
    this._delay = this.options.minDelay;
    this._closed = false;
    this._timer = null;
    this._open();
  }

  _open() {
    if (this._closed) return;
    const socket = openSocket(this.url, this.options);
    this.socket = socket;
    socket.onopen = () => {
      this.connected = true;
      this._delay = this.options.minDelay;
      this.dispatchEvent(new Event("open"));
    };
    socket.onmessage = (message) => {
      const reply = JSON.parse(message.data);
      const pending = this._pending[0];
      if (!pending) return;
      if (!reply.continues) this._pending.shift();
      if (reply.error) pending.reject(new VarlinkError(reply.error, reply.parameters));
      else pending.resolve(reply.parameters ?? {});
    };
    socket.onclose = () => {
      const wasConnected = this.connected;
      this.connected = false;
      for (const pending of this._pending.splice(0)) pending.reject(new ConnectionError("connection closed"));
      if (wasConnected) this.dispatchEvent(new Event("close"));
      if (this._closed) return;
      const delay = this._delay * (0.75 + Math.random() * 0.5);
      this._delay = Math.min(this._delay * 2, this.options.maxDelay);
      this._timer = setTimeout(() => this._open(), delay);
    };
  }

  /**
   * Calls `method` (qualified, e.g. `io.focusd.Focus.Move`) and resolves with its reply's
   * parameters; rejects with {@link VarlinkError} for an error reply.
   * @param {string} method @param {object} [parameters] @returns {Promise<any>}
   */
  call(method, parameters = {}) {
    return new Promise((resolve, reject) => {
      if (!this.connected) return reject(new ConnectionError("not connected"));
      this._pending.push({ resolve, reject });
      this.socket.send(JSON.stringify({ method, parameters }));
    });
  }

  /**
   * A `more` call on a connection of its own (a stream holds back later calls on its
   * connection). `onReply(parameters)` gets every reply; the stream ends when the call ends or
   * `close()` is called. Resolves once the call is sent.
   * @param {string} method @param {object} parameters @param {(parameters: any) => void} onReply
   * @param {(error?: Error) => void} [onEnd] @returns {{close(): void}}
   */
  stream(method, parameters, onReply, onEnd) {
    const socket = openSocket(this.url, this.options);
    let ended = false;
    const end = (error) => {
      if (ended) return;
      ended = true;
      onEnd?.(error);
    };
    socket.onopen = () => socket.send(JSON.stringify({ method, parameters, more: true }));
    socket.onmessage = (message) => {
      const reply = JSON.parse(message.data);
      if (reply.error) {
        end(new VarlinkError(reply.error, reply.parameters));
        socket.close();
        return;
      }
      onReply(reply.parameters ?? {});
      if (!reply.continues) {
        end();
        socket.close();
      }
    };
    socket.onclose = () => end(new ConnectionError("stream closed"));
    return { close: () => { ended = true; socket.close(); } };
  }

  /**
   * Monitors focus events of `scene` (the active scene when omitted): `onEvent(event, state)`.
   * The first reply is the state (`event` null). @returns {{close(): void}}
   */
  monitor(onEvent, scene) {
    return this.stream("io.focusd.Focus.Monitor", scene ? { scene } : {}, (p) => onEvent(p.event ?? null, p.state ?? null));
  }

  /** Closes for good (no reconnect). */
  close() {
    this._closed = true;
    clearTimeout(this._timer);
    this.socket?.close();
  }
}

/** Connects to focusd at `url` (`ws://127.0.0.1:PORT`). @param {string} url @param {ConnectOptions} [options] */
export function connect(url, options) {
  return new FocusdClient(url, options);
}

// ---------------------------------------------------------------------------------------------
// The DOM binding.

const ATTRIBUTE_PREFIX = "data-focus";
const round = (value) => Math.round(value * 100) / 100;

function isNodeElement(element) {
  for (const name of element.getAttributeNames()) {
    if (name === "data-focusable" || name === ATTRIBUTE_PREFIX || name.startsWith(ATTRIBUTE_PREFIX + "-")) return true;
  }
  return false;
}

function parseList(text) {
  return (text ?? "").split(/[\s,]+/).filter(Boolean);
}

/** `name` or `name=value` (space-separated) → bindings. */
function parseBindings(text) {
  return parseList(text).map((item) => {
    const eq = item.indexOf("=");
    return eq < 0 ? { name: item } : { name: item.slice(0, eq), value: item.slice(eq + 1) };
  });
}

/** `k=v; k2=v2` or a JSON object → a string map. */
function parseMap(text) {
  if (text == null) return undefined;
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return JSON.parse(trimmed);
  const map = {};
  for (const part of trimmed.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) map[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return map;
}

/**
 * The element's layout box in viewport coordinates: `getBoundingClientRect`, without the
 * element's own transform, so a focus effect that scales the focused element (tvOS's lift) does
 * not change its frame. The box keeps the transformed box's centre.
 */
function layoutRect(element) {
  const rect = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  if (style.transform === "none") return rect;
  const m = new DOMMatrixReadOnly(style.transform);
  let width, height, cx, cy;
  if (m.is2D && m.b === 0 && m.c === 0 && m.a > 0 && m.d > 0) {
    // Scale and translate about the default origin (the centre): undo both.
    width = rect.width / m.a;
    height = rect.height / m.d;
    cx = rect.left + rect.width / 2 - m.e;
    cy = rect.top + rect.height / 2 - m.f;
  } else {
    width = element.offsetWidth ?? rect.width;
    height = element.offsetHeight ?? rect.height;
    cx = rect.left + rect.width / 2;
    cy = rect.top + rect.height / 2;
  }
  return { left: cx - width / 2, top: cy - height / 2, width, height };
}

/** Whether two frames differ by more than layout noise (a transition's sub-pixel steps). */
function framesDiffer(a, b) {
  if (!a || !b) return a !== b;
  return ["x", "y", "width", "height"].some((k) => Math.abs(a[k] - b[k]) > 0.5);
}

function subtreeIds(node) {
  return [node.id, ...(node.children ?? []).flatMap(subtreeIds)];
}

const number = (text) => (text == null || text === "" ? undefined : Number(text));

/**
 * A page's scene, bound to its DOM: see {@link bindScene}.
 *
 * Events (on the binding; each also goes to the element concerned as `focusd:KIND`, bubbling):
 * `focus`, `blocked`, `activate`, `edit`, `command`, `bindings`, `values`, `scroll`,
 * `materialize` (detail: the focusd event, plus `element` and `index` where they apply), `state`.
 */
export class SceneBinding extends EventTarget {
  /**
   * @param {FocusdClient} client @param {Element} root
   * @param {{name?: string, layoutDirection?: string, policy?: string, keyboard?: "focusd"|"forward",
   *   scrollBehavior?: ScrollBehavior}} [options]
   */
  constructor(client, root, options = {}) {
    super();
    this.client = client;
    this.root = root;
    this.name = options.name ?? root.getAttribute("data-focus-scene") ?? "web";
    this.options = { keyboard: "focusd", scrollBehavior: "instant", ...options };
    /** The latest state focusd sent. @type {FocusState|null} */
    this.state = null;
    /** Node id → element. @type {Map<string, Element>} */
    this.elements = new Map();
    this._ids = new WeakMap();
    this._generated = 0;
    this._sent = new Map(); // id → {parent, index, json, frame}: what focusd has
    this._installed = false;
    this._flushScheduled = false;
    this._updating = null;
    this._monitor = null;
    this._applying = false;
    this._focusedElement = null;
    this._resize = new ResizeObserver(() => this._scheduleFlush());
    // Its own marks (data-focused, tabindex) change nothing in the scene.
    this._mutation = new MutationObserver((records) => {
      if (records.some((r) => r.type !== "attributes" || (r.attributeName !== "data-focused" && r.attributeName !== "tabindex"))) {
        this._scheduleFlush();
      }
    });
    this._mutation.observe(root, { subtree: true, childList: true, attributes: true, characterData: false });
    this._onOpen = () => this._install();
    client.addEventListener("open", this._onOpen);
    this._onKey = (event) => this._key(event);
    this._onFocusIn = (event) => this._focusIn(event);
    this._onScroll = (event) => this._pageScrolled(event);
    root.addEventListener("keydown", this._onKey, true);
    root.addEventListener("focusin", this._onFocusIn);
    root.addEventListener("scroll", this._onScroll, true);
    window.addEventListener("resize", this._onResize = () => this._scheduleFlush());
    if (client.connected) this._install();
  }

  /** The focused node's id (null when nothing is focused). */
  get focused() { return this.state?.focused ?? null; }
  /** The focused element. */
  get focusedElement() { return this.focused ? this.elements.get(this.focused) ?? null : null; }
  /** Focused values of the focused node and its ancestors (`focusedValue`). */
  get focusedValues() { return this.state?.focusedValues ?? {}; }
  /** Scene values (`focusedSceneValue`). */
  get sceneValues() { return this.state?.sceneValues ?? {}; }
  /** Every binding's read value. */
  get bindings() { return this.state?.bindings ?? []; }

  /** The read value of binding `name`: `isTrue` for a Bool binding, else `value`. */
  binding(name) {
    const state = this.bindings.find((b) => b.name === name);
    if (!state) return undefined;
    return state.isTrue ?? state.value ?? null;
  }

  /** FocusState write: focus the node bound to `name` (= `value`), or clear it (`value` false/null). */
  setBinding(name, value) {
    const parameters = { scene: this.name, name };
    if (typeof value === "boolean") parameters.isTrue = value;
    else parameters.value = value;
    return this.client.call("io.focusd.Focus.SetBinding", parameters).then((r) => this._setState(r.state));
  }

  /** Moves focus (`up`, `down`, `left`, `right`, `next`, `previous`). */
  move(direction) {
    return this.client.call("io.focusd.Focus.Move", { scene: this.name, direction }).then((r) => this._setState(r.state));
  }

  /** Focuses a node by id or element. */
  focus(target) {
    const id = typeof target === "string" ? target : this.idOf(target);
    return this.client.call("io.focusd.Focus.Focus", { scene: this.name, id }).then((r) => this._setState(r.state));
  }

  /** The node id of an element (its `data-focus-id`, its `id`, or one made up for it). */
  idOf(element) {
    const given = element.getAttribute("data-focus-id") || element.id;
    if (given) return given;
    let id = this._ids.get(element);
    if (!id) {
      id = `web-${++this._generated}`;
      this._ids.set(element, id);
    }
    return id;
  }

  /** Stops: no more updates; the scene goes away with the client's connection. */
  disconnect() {
    this._resize.disconnect();
    this._mutation.disconnect();
    this._monitor?.close();
    this.client.removeEventListener("open", this._onOpen);
    this.root.removeEventListener("keydown", this._onKey, true);
    this.root.removeEventListener("focusin", this._onFocusIn);
    this.root.removeEventListener("scroll", this._onScroll, true);
    window.removeEventListener("resize", this._onResize);
  }

  // --- Building the scene from the DOM ------------------------------------------------------

  /** The whole scene as focusd takes it (`SetScene`). */
  buildScene() {
    const described = this._describe();
    const scene = { name: this.name, root: described.root };
    if (this.options.layoutDirection) scene.layoutDirection = this.options.layoutDirection;
    if (this.options.policy) scene.policy = this.options.policy;
    return { scene, described };
  }

  /**
   * Every node: the scene root is the bound element (`data-focus-id` or "root"); its frame is
   * its size and the origin of scene coordinates. Inside a scroll container frames are in the
   * container's content coordinates (focus.md §12).
   */
  _describe() {
    const flat = new Map(); // id → {parent, index, own, element}
    const rootRect = this.root.getBoundingClientRect();
    const seenElements = new Map();
    const build = (element, parentId, index, origin) => {
      const id = element === this.root ? (this.root.getAttribute("data-focus-id") || "root") : this.idOf(element);
      const node = this._ownFields(element, id, origin);
      seenElements.set(id, element);
      // Offsets are focusd's to change (scrolling changes no frame): not a reason to update.
      // Frames are compared with a tolerance (see _flush).
      const json = JSON.stringify(node, (key, value) => (key === "offsetX" || key === "offsetY" || key === "frame" ? undefined : value));
      flat.set(id, { parent: parentId, index, json, frame: node.frame, own: { ...node }, element });
      // Children: the nearest marked descendants, in document order.
      const childOrigin = node.scroll ? this._contentOrigin(element) : origin;
      const children = [];
      const walk = (container) => {
        for (const child of container.children) {
          if (isNodeElement(child)) children.push(child);
          else walk(child);
        }
      };
      walk(element);
      if (children.length) node.children = children.map((child, i) => build(child, id, i, childOrigin));
      return node;
    };
    const root = build(this.root, null, 0, { x: rootRect.left, y: rootRect.top });
    this.elements = seenElements;
    return { root, flat };
  }

  /** Where content coordinates start for a scroll container, in viewport coordinates. */
  _contentOrigin(element) {
    const rect = element.getBoundingClientRect();
    return { x: rect.left + element.clientLeft - element.scrollLeft, y: rect.top + element.clientTop - element.scrollTop };
  }

  _ownFields(element, id, origin) {
    const a = (name) => element.getAttribute(`data-focus-${name}`);
    const has = (name) => element.hasAttribute(`data-focus-${name}`);
    const rect = layoutRect(element);
    const node = { id };
    if (element === this.root) {
      node.frame = { x: 0, y: 0, width: round(rect.width), height: round(rect.height) };
    } else {
      node.frame = { x: round(rect.left - origin.x), y: round(rect.top - origin.y), width: round(rect.width), height: round(rect.height) };
    }
    if (element.hasAttribute("data-focusable")) node.focusable = element.getAttribute("data-focusable") !== "false";
    if (has("disabled") || element.matches(":disabled")) node.disabled = true;
    if (has("interactions")) node.interactions = parseList(a("interactions"));
    if (has("section")) node.section = true;
    if (has("scope")) node.scope = a("scope") || id;
    if (has("prefers-default")) node.prefersDefaultFocus = a("prefers-default");
    if (has("default")) {
      const [binding] = parseBindings(a("default"));
      node.defaultFocus = { ...binding };
      if (has("default-priority")) node.defaultFocus.priority = a("default-priority");
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
    if (has("modal")) node.modal = true;
    if (has("scroll")) {
      node.scroll = {
        axis: a("scroll") || "both",
        contentWidth: round(element.scrollWidth),
        contentHeight: round(element.scrollHeight),
        offsetX: round(element.scrollLeft),
        offsetY: round(element.scrollTop),
      };
      if (has("scroll-policy")) node.scroll.policy = a("scroll-policy");
      if (has("scroll-margin")) node.scroll.margin = number(a("scroll-margin"));
    }
    if (has("collection")) {
      node.collection = {
        layout: a("collection") || "row",
        count: number(a("count")) ?? 0,
        itemWidth: number(a("item-width")) ?? 0,
        itemHeight: number(a("item-height")) ?? 0,
      };
      if (has("spacing")) node.collection.spacing = number(a("spacing"));
      if (has("columns")) node.collection.columns = number(a("columns"));
    }
    if (has("index")) node.index = number(a("index"));
    return node;
  }

  _observe() {
    this._resize.disconnect();
    for (const element of this.elements.values()) this._resize.observe(element);
  }

  /** Sends the whole scene: at start and after every reconnect (the scene went with the old connection). */
  async _install() {
    this._monitor?.close();
    this._installed = false;
    const { scene, described } = this.buildScene();
    try {
      const reply = await this.client.call("io.focusd.Focus.SetScene", { scene });
      this.state = null; // a new scene: its revisions start again
      this._sent = new Map([...described.flat].map(([id, n]) => [id, { parent: n.parent, index: n.index, json: n.json, frame: n.frame }]));
      this._installed = true;
      this._observe();
      this._setState(reply.state);
      for (const warning of reply.warnings ?? []) console.warn("focusd:", warning);
      this._startMonitor();
      this._scheduleFlush(); // whatever changed while the call was out
    } catch (error) {
      console.error("focusd: SetScene failed", error);
      this.dispatchEvent(new CustomEvent("error", { detail: error }));
    }
  }

  _startMonitor() {
    this._monitor = this.client.monitor((event, state) => {
      if (state) this._setState(state);
      if (event) this._event(event);
    }, this.name);
  }

  _scheduleFlush() {
    if (this._flushScheduled || !this._installed) return;
    this._flushScheduled = true;
    requestAnimationFrame(() => {
      this._flushScheduled = false;
      this._flush();
    });
  }

  /**
   * Sends what changed since the last update: an upsert for each changed node (with its
   * subtree, which an upsert replaces) not inside another changed one, and the removed ids.
   */
  async _flush() {
    if (!this._installed) return;
    if (this._updating) {
      this._again = true;
      return;
    }
    const { described } = this.buildScene();
    const now = described.flat;
    const changed = new Set();
    for (const [id, node] of now) {
      const before = this._sent.get(id);
      if (!before || before.json !== node.json || before.parent !== node.parent || before.index !== node.index
        || framesDiffer(before.frame, node.frame)) {
        changed.add(id);
      }
    }
    const removed = [...this._sent.keys()].filter((id) => !now.has(id));
    if (!changed.size && !removed.length) return;
    if (changed.has(now.keys().next().value)) {
      // The root changed (its size, say): an update cannot replace it, so the scene goes whole.
      await this._install();
      return;
    }
    const upsert = [];
    const subtree = (id) => {
      const n = now.get(id);
      const node = { ...n.own };
      const children = [...now].filter(([, c]) => c.parent === id).map(([childId]) => subtree(childId));
      if (children.length) node.children = children;
      return node;
    };
    for (const id of changed) {
      let parent = now.get(id).parent;
      let covered = false;
      while (parent != null) {
        if (changed.has(parent)) { covered = true; break; }
        parent = now.get(parent).parent;
      }
      if (!covered) upsert.push({ parent: now.get(id).parent, index: now.get(id).index, node: subtree(id) });
    }
    const removeIds = removed.filter((id) => {
      const parent = this._sent.get(id).parent;
      return !removed.includes(parent) && !changed.has(parent);
    });
    const params = { scene: this.name };
    if (upsert.length) params.upsert = upsert;
    if (removeIds.length) params.remove = removeIds;
    this._updating = this.client.call("io.focusd.Focus.UpdateScene", params);
    try {
      const reply = await this._updating;
      // What focusd has now: the nodes sent, and for the others what they had before.
      const sent = new Set(upsert.flatMap((p) => subtreeIds(p.node)));
      this._sent = new Map([...now].map(([id, n]) => {
        const kept = sent.has(id) ? n : this._sent.get(id) ?? n;
        return [id, { parent: n.parent, index: n.index, json: n.json, frame: kept.frame }];
      }));
      this._observe();
      this._setState(reply.state);
      this.dispatchEvent(new CustomEvent("update", { detail: params }));
    } catch (error) {
      if (error instanceof VarlinkError) {
        console.error("focusd: UpdateScene failed; sending the scene whole", error);
        this._updating = null;
        await this._install();
        return;
      }
    } finally {
      this._updating = null;
    }
    if (this._again) {
      this._again = false;
      this._scheduleFlush();
    }
  }

  // --- Applying what focusd says -------------------------------------------------------------

  _setState(state) {
    if (!state || state.scene !== this.name) return;
    if (this.state && state.revision < this.state.revision) return;
    this.state = state;
    this._applyFocus();
    for (const offset of state.scroll ?? []) this._applyScroll(offset.node, offset.offsetX, offset.offsetY);
    this.dispatchEvent(new CustomEvent("state", { detail: state }));
  }

  _applyFocus() {
    const element = this.focusedElement;
    if (element === this._focusedElement) return;
    this._focusedElement?.removeAttribute("data-focused");
    const previous = this._focusedElement;
    this._focusedElement = element;
    if (!element) {
      // Nothing, or an item of a lazy list not built yet (`rail#57`): no element holds focus
      // until the page builds it.
      if (previous && previous === document.activeElement) {
        this._applying = true;
        previous.blur();
        this._applying = false;
      }
      return;
    }
    element.setAttribute("data-focused", "");
    if (!element.hasAttribute("tabindex") && element.tabIndex < 0) element.setAttribute("tabindex", "-1");
    // focusd owns scroll containers: the browser must not scroll them to the element itself.
    const insideScroll = !!element.parentElement?.closest("[data-focus-scroll]");
    this._applying = true;
    try {
      element.focus({ preventScroll: insideScroll, focusVisible: this.state?.focusEffectEnabled !== false });
    } finally {
      this._applying = false;
    }
  }

  _applyScroll(id, x, y) {
    const element = this.elements.get(id);
    if (!element) return;
    if (Math.abs(element.scrollLeft - x) < 0.5 && Math.abs(element.scrollTop - y) < 0.5) return;
    this._scrolledByFocusd = element;
    element.scrollTo({ left: x, top: y, behavior: this.options.scrollBehavior });
  }

  /** Folds a Monitor event into `state` (the stream sends the state once, then events). */
  _fold(event) {
    const state = this.state;
    if (!state || event.scene !== this.name) return;
    const main = !event.track || event.track === "main";
    if (event.kind === "focus" && main) state.focused = event.to ?? null;
    if (event.kind === "focus" && !main) state.accessibilityFocused = event.to ?? null;
    if (event.kind === "bindings" && main) {
      for (const changed of event.bindings ?? []) {
        const index = state.bindings.findIndex((b) => b.name === changed.name);
        if (index >= 0) state.bindings[index] = changed;
        else state.bindings.push(changed);
      }
    }
    if (event.kind === "values") state.focusedValues = event.values ?? {};
    if (event.kind === "scroll") {
      state.scroll = (state.scroll ?? []).filter((s) => s.node !== event.node);
      state.scroll.push({ node: event.node, offsetX: event.offsetX ?? 0, offsetY: event.offsetY ?? 0 });
    }
    if (event.revision > state.revision) state.revision = event.revision;
    if (event.kind === "focus" && main) this._applyFocus();
    if (["focus", "bindings", "values", "scroll"].includes(event.kind)) {
      this.dispatchEvent(new CustomEvent("state", { detail: state }));
    }
  }

  _event(event) {
    this._fold(event);
    let element = null;
    switch (event.kind) {
      case "focus":
        element = this.elements.get(event.to) ?? null;
        break;
      case "activate":
        element = this.elements.get(event.to) ?? null;
        element?.click();
        break;
      case "edit":
      case "blocked":
        element = this.elements.get(event.to ?? event.from) ?? null;
        break;
      case "scroll":
        element = this.elements.get(event.node) ?? null;
        this._applyScroll(event.node, event.offsetX ?? 0, event.offsetY ?? 0);
        break;
      case "materialize":
        // The page's lazy list builds item `index` (an element with data-focus-index); the
        // MutationObserver then sends it, and focus passes to it.
        element = this.elements.get(event.node) ?? null;
        break;
      default:
        element = this.focusedElement;
    }
    const detail = { ...event, element, index: event.index };
    this.dispatchEvent(new CustomEvent(event.kind, { detail }));
    element?.dispatchEvent(new CustomEvent(`focusd:${event.kind}`, { detail, bubbles: true }));
  }

  // --- The page's own input -------------------------------------------------------------------

  /**
   * Keys that reach the page: focusd reads the same keyboard from the kernel and moves focus
   * itself, so the page must not also move, scroll or click. With `keyboard: "forward"` (a page
   * whose keyboard focusd does not see, e.g. a browser on another machine) the page sends them.
   */
  _key(event) {
    const map = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right", Tab: event.shiftKey ? "previous" : "next" };
    const editing = event.target.matches?.("input:not([type=button]):not([type=checkbox]), textarea, [contenteditable]");
    let command = map[event.key];
    if (editing && (event.key === "ArrowLeft" || event.key === "ArrowRight")) return;
    const select = event.key === "Enter" || (event.key === " " && !editing);
    if (!command && !select) return;
    event.preventDefault();
    if (this.options.keyboard !== "forward") return;
    if (command) this.move(command).catch(() => {});
    else this.client.call("io.focusd.Focus.Send", { scene: this.name, command: "select" }).catch(() => {});
  }

  /** A click or tap focused an element: tell focusd, so both agree. */
  _focusIn(event) {
    if (this._applying) return;
    let element = event.target;
    while (element && element !== this.root && !isNodeElement(element)) element = element.parentElement;
    if (!element || element === this._focusedElement) return;
    const id = this.idOf(element);
    if (this.elements.has(id)) this.focus(id).catch(() => {});
  }

  /** A scroll container scrolled by the user (touch, wheel): `ScrollTo`, focus stays. */
  _pageScrolled(event) {
    const element = event.target;
    if (!(element instanceof Element) || !element.hasAttribute("data-focus-scroll")) return;
    const id = this.idOf(element);
    const current = (this.state?.scroll ?? []).find((s) => s.node === id);
    if (current && Math.abs(current.offsetX - element.scrollLeft) < 1 && Math.abs(current.offsetY - element.scrollTop) < 1) return;
    clearTimeout(this._scrollTimer);
    this._scrollTimer = setTimeout(() => {
      this.client
        .call("io.focusd.Focus.ScrollTo", { scene: this.name, node: id, offsetX: element.scrollLeft, offsetY: element.scrollTop })
        .then((r) => this._setState(r.state))
        .catch(() => {});
    }, 50);
  }
}

/**
 * Binds the marked elements under `root` to a scene named `options.name` (else the root's
 * `data-focus-scene`, else "web"): the scene is sent when the client connects (again after a
 * reconnect), kept current with UpdateScene, and focus is applied to the page.
 * @param {FocusdClient} client @param {Element} root @param {object} [options] @returns {SceneBinding}
 */
export function bindScene(client, root, options) {
  return new SceneBinding(client, root, options);
}
