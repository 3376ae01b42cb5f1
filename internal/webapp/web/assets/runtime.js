// The acore web runtime: signals, effects, DOM bindings, keyed lists,
// contract calls and the router (docs/web.md, "The runtime"). The compiled
// app follows it in app.js, minified by `go generate` (runtime.min.js).
//
// The app calls only the names of the table at the end (the runtime's API,
// docs/web.md "The runtime's API"); everything else here is private and
// renamed by the minifier. The app defines XS (its extern actions), B (the
// backend's base URL), AX (the AXAG attribute sets) and R (the routes),
// which the runtime reads when it runs.
//
// Functions that need no this are arrow functions, which the minifier
// writes shorter than declarations.
//
// The names in capitals are the app's features (assets.Features), which
// the minifier replaces by constants: the code of a feature the app does
// not have folds away. HASH is set for hash routing; PARAMS when a route
// has parameters or arguments; NAV when the app navigates (Link,
// navigate); LIST_END and LIST_EMPTY when a list has on_end_reached or an
// empty text; ROW_FX when a list has rows with effects; CONFIRM when an
// action asks for confirmation.
const doc = document;

// Effects: an effect is {f, kids$, cleanups$, deps$, order$, parent$}; a
// scope made by scope() is one without f. A killed effect has dead$ set.
//
// A property whose name ends in $ is the runtime's own: the minifier
// gives it a short name (assets.go, MangleProps). The compiled app never
// reads one, and no name of the app's or of the DOM ends in $.
const pending = new Set();
let current = null; // the effect whose reads subscribe it
let owner = null; // the scope that owns effects made now
let scheduled = false;
let nextOrder = 0;

// signal makes a signal: s() reads it (and subscribes the running
// effect), s.set(v) writes it.
const signal = (value) => {
  // The function reads itself by its own name, which needs no context
  // object per signal as a closure over s would.
  const s = function read() {
    if (current) track(read);
    return read.value$;
  };
  s.value$ = value;
  s.subscribers$ = null;
  s.set = setSignal;
  return s;
};

// setSignal is every signal's set, a method (one function, no closure
// per signal).
function setSignal(next) {
  if (equal(this.value$, next)) return;
  this.value$ = next;
  for (const e of this.subscribers$ || []) schedule(e);
}

// persisted makes a signal kept in localStorage under key: it starts
// from the stored value when that fits type (see fits), else from init
// with a warning, and stores every value it is set to.
const persisted = (key, init, type) => {
  let v = init;
  try {
    const raw = localStorage.getItem(key);
    if (raw != null) {
      const x = JSON.parse(raw);
      if (fits(type, x)) v = x;
      else console.warn("acore: the stored value of " + key + " does not fit its type; the state starts from its initial value");
    }
  } catch (x) {
    console.warn("acore: the stored value of " + key + " cannot be read; the state starts from its initial value", x);
  }
  const s = signal(v);
  s.set = (next) => {
    setSignal.call(s, next);
    try {
      localStorage.setItem(key, JSON.stringify(next));
    } catch (x) {
      console.warn("acore: " + key + " cannot be stored", x);
    }
  };
  return s;
};

// fits checks a stored value against a type's shape: "S", "I", "F",
// "B", ["O", t] (optional), ["L", t] (list), ["R", {field: t}] (model);
// "*" fits anything.
const fits = (t, v) => {
  switch (t) {
    case "S": return typeof v == "string";
    case "I": return Number.isInteger(v);
    case "F": return typeof v == "number";
    case "B": return typeof v == "boolean";
    case "*": return true;
  }
  switch (t[0]) {
    case "O": return v == null || fits(t[1], v);
    case "L": return Array.isArray(v) && v.every((x) => fits(t[1], x));
    case "R": return v != null && typeof v == "object" && !Array.isArray(v) && Object.keys(t[1]).every((k) => fits(t[1][k], v[k]));
  }
  return false;
};

// equal is Acore's ==: structural on lists and records, null and
// undefined alike.
const equal = (a, b) => {
  if (a === b || a == null && b == null) return true;
  if (typeof a != "object" || typeof b != "object" || !a || !b) return false;
  const list = Array.isArray(a);
  if (list !== Array.isArray(b)) return false;
  if (list) {
    // By index: Object.keys of a long list makes a string per item.
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!equal(a[k], b[k])) return false;
  return true;
};

const clean = (o) => {
  if (o.fx$) kill(o.fx$);
  if (o.kids$) for (const k of o.kids$) kill(k);
  if (o.cleanups$) for (const c of o.cleanups$) c();
  if (o.deps$) {
    for (const s of o.deps$) {
      // A selector's key that no effect reads any more leaves its map.
      if (!unsubscribe(s, o) && s.m) s.m.delete(s.k);
    }
  }
  o.kids$ = o.cleanups$ = o.deps$ = null;
};

const kill = (o) => {
  o.dead$ = true;
  clean(o);
};

// drop kills o and removes it from its parent's kids.
const drop = (o) => {
  kill(o);
  const kids = o.parent$ && o.parent$.kids$;
  const i = kids ? kids.indexOf(o) : -1;
  if (i >= 0) kids.splice(i, 1);
};

// Effects and scopes make their lists when they first need one: most of a
// row's effects own nothing and read one or two signals. A short list is
// copied one longer instead of pushed to, as a push on a short array
// grows its store by many slots, which every row would keep.
const grow = (a, x) => !a ? [x] : a.length < 8 ? [...a, x] : (a.push(x), a);
const adopt = (parent, o) => {
  if (parent) parent.kids$ = grow(parent.kids$, o);
};

// A signal's subscribers are null, an array while they are few (a row's
// signals have one to three) or a Set once they are many, as a Set's
// table costs more than a short array and an array's indexOf grows with
// its length. Only track adds one, when it is not among them yet.
const subscribe = (s, e) => {
  const x = s.subscribers$;
  s.subscribers$ = !x ? [e] : x instanceof Set ? x.add(e) : x.length < 8 ? [...x, e] : new Set(x).add(e);
};

// unsubscribe takes e from s's subscribers and returns how many are left.
const unsubscribe = (s, e) => {
  const x = s.subscribers$;
  if (x instanceof Set) {
    x.delete(e);
    return x.size;
  }
  const i = x.indexOf(e);
  if (i >= 0) x.splice(i, 1);
  return x.length;
};

// track subscribes the running effect to s (a signal or a selector's key);
// deps is an array, as an effect reads few.
const track = (s) => {
  const d = current.deps$;
  if (d && d.includes(s)) return;
  subscribe(s, current);
  current.deps$ = grow(d, s);
};

const run = (e) => {
  clean(e);
  enter(e, e, guarded, e);
};

// enter returns f() run as t's method with c the running effect and o
// the owner, and restores both after.
const enter = (c, o, f, t) => {
  const pc = current, po = owner;
  current = c;
  owner = o;
  try {
    return f.call(t);
  } finally {
    current = pc;
    owner = po;
  }
};

// guarded runs this.f as this's method; an exception is logged.
function guarded() {
  try {
    this.f();
  } catch (x) {
    console.error(x);
  }
}

// effect runs f now and again whenever a signal it read changes (in a
// microtask, parents first).
// A binding passes its element and getter, which the effect keeps (el$,
// get$, v for the value last written and own$ for a class binding), so
// that its f is one function for every element, called as a method,
// instead of a closure per element.
const effect = (f, el, get) => {
  if (ROW_FX && el && owner && owner.node$) return bindRow(owner, {f, el$: el, get$: get, v: null, own$: null});
  const e = {f, kids$: null, cleanups$: null, deps$: null, order$: nextOrder++, parent$: owner, el$: el, get$: get, v: null, own$: null};
  adopt(owner, e);
  run(e);
  return e;
};

// A list row's own text and class bindings share one effect, the row's
// (its fx$), which runs them all when anything one of them read changes:
// each writes only what changed, so the DOM sees what it would of one
// effect per binding, and a row keeps one effect and one list of reads.
const bindRow = (row, b) => {
  let e = row.fx$;
  if (!e) {
    // Not among the row's kids: clean kills a row's fx itself, which
    // saves most rows a list of kids.
    e = row.fx$ = {f: runRow, kids$: null, cleanups$: null, deps$: null, order$: nextOrder++, parent$: row, bs: null};
  }
  e.bs = grow(e.bs, b);
  enter(e, e, guarded, b);
  return b;
};

function runRow() {
  for (const b of this.bs) guarded.call(b);
}

const schedule = (e) => {
  pending.add(e);
  if (!scheduled) {
    scheduled = true;
    queueMicrotask(flush);
  }
};

const flush = () => {
  while (pending.size) {
    const batch = [...pending].sort((x, y) => x.order$ - y.order$);
    pending.clear();
    for (const e of batch) if (!e.dead$) run(e);
  }
  scheduled = false;
};

// untracked runs f without subscribing the running effect.
const untracked = (f) => enter(null, owner, f);

// scope runs f in a new scope owned by parent and returns the scope; s,
// when given, is the scope (a list's row is its own scope).
const scope = (parent, f, s = {kids$: null, cleanups$: null, parent$: parent}) => {
  adopt(parent, s);
  enter(null, s, f);
  return s;
};

const onCleanup = (f) => owner && (owner.cleanups$ ||= []).push(f);

// Values: Acore text, integer arithmetic, optionals.
const text = (v) => v == null ? "" : String(v);
const div = (a, b) => b ? Math.trunc(a / b) : 0;
const rem = (a, b) => b ? a % b : 0;
const length = (v) => v == null ? null : [...v].length;
const count = (v) => v == null ? null : v.length;
const isEmpty = (v) => v == null ? null : v.length === 0;

// setAttrs sets the attributes given as name, value pairs.
const setAttrs = (e, a) => {
  for (let i = 0; i < a.length; i += 2) e.setAttribute(a[i], a[i + 1]);
};

// element creates an element with attributes given as name, value
// pairs, the node id and its text, appended to parent when there is one. A button
// never submits a form by itself: its type is "button" unless attrs say.
const element = (tag, attrs, parent, id, text) => {
  const e = doc.createElement(tag);
  if (tag == "button") e.type = "button";
  setAttrs(e, attrs);
  if (id) e.setAttribute("data-acore-id", id);
  if (text) e.textContent = text;
  if (parent) parent.append(e);
  return e;
};

// bindText writes only a text that changed, into the element's one
// text node when it has one, so a changed text is one characterData
// change and an unchanged one is no DOM work.
function updateText() {
  const v = text(this.get$()), e = this.el$;
  if (v === this.v) return;
  this.v = v;
  const c = e.firstChild;
  if (c && c.nodeType == 3 && !c.nextSibling) c.data = v;
  else e.textContent = v;
}
const bindText = (e, f) => {
  effect(updateText, e, f);
};
const bindProp = (e, name, f) => effect(() => {
  e[name] = f();
});
const bindStyle = (e, name, f, unit) => {
  let last;
  effect(() => {
    const v = f(), css = v == null ? "" : v + (unit || "");
    if (css !== last) e.style[name] = last = css;
  });
};
// URL rules (docs/web.md, "URLs"): a Link's href is a path of the app,
// an Image's src a relative, http(s) or data:image URL; none holds a
// control character, a space or a backslash.
const plain = (v) => !/[\0- \x7f\\]/.test(v);
const routePath = (v) => plain(v) && /^\/(?!\/)/.test(v);
const hashPath = (v) => v[0] == "#" && routePath(v.slice(1));
const imageSource = (v) => plain(v) &&
  (/^(https?:|data:image\/(png|jpeg|gif|webp|avif)[;,])/i.test(v) || !/^([a-z][a-z\d+.-]*:|\/\/)/i.test(v));

// bindAttr binds an attribute; rule, when given, is a URL's rule: a
// value it refuses leaves the attribute off and is said on the console.
// Setting an attribute to its value is still a DOM change, so only a
// changed one is written.
const bindAttr = (e, name, f, rule) => {
  let last;
  effect(() => {
    let v = f();
    if (v != null && rule && !rule(v = String(v))) {
      console.warn("acore: refused " + name, v);
      v = null;
    }
    v = v == null ? null : String(v);
    if (v === last) return;
    last = v;
    v == null ? e.removeAttribute(name) : e.setAttribute(name, v);
  });
};

const act = (f, x) => {
  try {
    f(x);
  } catch (x) {
    console.error(x);
  }
};

// confirmed: an element whose action declares confirmation_required
// asks before it runs, so the page does what its AXAG facts promise
// runtime agents and people. Its callers test CONFIRM first, so that an
// app without the feature keeps no call of it.
const confirmed = (e) => e.getAttribute("axag-confirmation-required") != "true" ||
  confirm(((e.textContent || e.getAttribute("aria-label") || "").trim() || "Continue") + ": are you sure?");

const flex = {start: "flex-start", end: "flex-end", center: "center", stretch: "stretch",
  space_between: "space-between", space_around: "space-around", space_evenly: "space-evenly"};

// onKey runs f when key (Enter unless given) is pressed in e, with Ctrl
// or ⌘ when mod is set (Enter alone starts a line in a TextArea).
const onKey = (e, f, key = "Enter", mod) => e.addEventListener("keydown", (x) => {
  if (x.key == key && !x.isComposing && (!mod || x.ctrlKey || x.metaKey)) {
    x.preventDefault();
    if (!CONFIRM || confirmed(e)) act(f);
  }
});

// bindClass adds the class names f gives to e's own (the theme's) and
// takes away those it gave before. Names are data: each is added to the
// classList, never written as markup, and one that e has of its own is
// neither added nor taken away.
function updateClass() {
  const e = this.el$, given = this.v || [];
  // The first run finds the element's own names, before any is given.
  if (!this.v) this.own$ = e.className ? new Set(e.classList) : null;
  const own = this.own$;
  // classList.add of a name e has still rewrites the attribute, so only
  // the names that come and go are touched.
  const next = text(this.get$()).split(/\s+/).filter((c) => c && !(own && own.has(c)));
  for (const c of given) if (!next.includes(c)) e.classList.remove(c);
  for (const c of next) if (!given.includes(c)) e.classList.add(c);
  this.v = next.length ? next : none;
}
const none = [];
const bindClass = (e, f) => {
  effect(updateClass, e, f);
};

// autofocus focuses e once it is in the page whenever f() holds: when e
// appears, and again each time f() becomes true.
const autofocus = (e, f) => effect(() => {
  if (f()) queueMicrotask(() => e.isConnected && e.focus());
});

// Event delegation: a handler of an event that bubbles is kept on its
// element, and one listener per event type at the document runs the
// handlers from the target up, as bubbling would, so a row costs no
// listener and no closure.
// The elements of a row without effects (plainRows) have no handler of their
// own: rowEvent, set to rowDispatch by the first such list, runs theirs.
const bubbling = new Set(["click", "dblclick", "submit"]), listening = new Set();
let rowEvent = null;
const dispatch = (x) => {
  const k = "$" + x.type, path = [];
  for (let n = x.target; n && !x.cancelBubble; n = n.parentNode) {
    rowEvent?.(x, n, path);
    const f = n[k];
    if (!f) continue;
    if (x.type == "submit") x.preventDefault();
    if (!CONFIRM || confirmed(n)) act(f);
  }
};
const listen = (name) => {
  if (!listening.has(name)) {
    listening.add(name);
    doc.addEventListener(name, dispatch);
  }
};
const on = (e, name, f) => {
  if (!bubbling.has(name)) {
    e.addEventListener(name, () => (!CONFIRM || confirmed(e)) && act(f));
    return;
  }
  e["$" + name] = f;
  listen(name);
};

// action sets the attributes of AXAG action i on e.
const action = (e, i) => {
  if (i != null) setAttrs(e, AX[i]);
};

// Two-way bindings: state is the state named by value/checked/on (or
// null), f reads the value, change is on_change's handler (or null).
const bindValue = (e, f, state, change) => {
  effect(() => {
    const v = text(f());
    if (e.value !== v) e.value = v;
  });
  e.addEventListener(e.tagName == "SELECT" ? "change" : "input", () => {
    if (state) state.set(e.value);
    if (change) act(change);
  });
};

const bindChecked = (e, f, state, change) => {
  effect(() => {
    e.checked = !!f();
  });
  e.addEventListener("change", () => {
    // An unbound box shows its value, not the click (the effect does
    // not run again when the value is unchanged).
    if (state) state.set(e.checked);
    else e.checked = !!untracked(f);
    if (change) act(change);
  });
};

const options = (e, f) => {
  effect(() => {
    const v = e.value;
    e.textContent = "";
    for (const o of f() || []) element("option", ["value", o], e).textContent = o;
    e.value = v;
  });
};

// conditional shows the first branch whose condition holds; branches
// is [cond, render, ...].
const conditional = (w, branches) => {
  const parent = owner;
  let shown = -2, s = null;
  effect(() => {
    let k = -1;
    for (let i = 0; i < branches.length; i += 2) {
      if (branches[i]()) {
        k = i;
        break;
      }
    }
    if (k === shown) return;
    shown = k;
    untracked(() => {
      if (s) drop(s);
      s = null;
      w.textContent = "";
      if (k >= 0) s = scope(parent, () => branches[k + 1](w));
    });
  });
};

// move moves node before ref in parent and keeps the focus and the
// selection inside it.
const move = (parent, node, ref) => {
  const a = doc.activeElement, focused = a && node.contains(a);
  if (parent.moveBefore && node.parentNode === parent && node.isConnected) {
    try {
      parent.moveBefore(node, ref);
      return;
    } catch {}
  }
  let start, end;
  if (focused) {
    try {
      start = a.selectionStart;
      end = a.selectionEnd;
    } catch {}
  }
  parent.insertBefore(node, ref);
  if (focused && doc.activeElement !== a) {
    a.focus({preventScroll: true});
    try {
      if (start != null) a.setSelectionRange(start, end);
    } catch {}
  }
};

// keep marks the positions of a that are in its longest increasing
// subsequence, skipping -1 (the new items): the nodes that stay. m is the
// number of old rows. First, as Solid's reconciler does, the ends: rows
// that start or end both the old and the new order stay, and a swap of
// the two ends moves both; the longest increasing subsequence is looked
// for only in what is left (a swap of rows 2 and 999 of 1,000 leaves
// nothing).
const keep = (a, m) => {
  const n = a.length, kept = new Uint8Array(n), taken = new Uint8Array(m);
  let s = 0, e = n - 1, os = 0, oe = m - 1, left = 0;
  for (const v of a) if (v >= 0) taken[v] = 1, left++;
  for (;;) {
    while (os <= oe && !taken[os]) os++;
    while (oe >= os && !taken[oe]) oe--;
    if (s > e) break;
    if (a[s] < 0) s++;
    else if (a[e] < 0) e--;
    else if (a[s] === os) kept[s++] = 1, os++, left--;
    else if (a[e] === oe) kept[e--] = 1, oe--, left--;
    // The first is the greatest and the last the least: neither is in an
    // increasing run of two, so when another row is left both move.
    else if (left > 2 && a[s] === oe && a[e] === os) s++, e--, os++, oe--, left -= 2;
    else break;
  }
  const prev = new Int32Array(n), tails = [];
  for (let i = s; i <= e; i++) {
    const v = a[i];
    if (v < 0) continue;
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (a[tails[mid]] < v) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo ? tails[lo - 1] : -1;
    tails[lo] = i;
  }
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = prev[i]) kept[i] = 1;
  return kept;
};

// dropAll kills the scopes of rows and takes them from parent's kids in
// one pass (one indexOf per row is quadratic when a long list goes).
const dropAll = (parent, rows) => {
  for (const r of rows) kill(r);
  if (parent && parent.kids$) parent.kids$ = parent.kids$.filter((k) => !k.dead$);
};

// list renders a keyed list into ul: an item keeps its <li> and its
// focus while the list changes, and its row takes the new value of a key
// already shown (writing only what changed). Only the rows outside the
// longest run that kept its order move, so a swap moves two. kind makes
// and updates the rows (general or plainRows); empty gives the text shown
// when there are none; end runs when the end of the list comes into view.
const list = (ul, items, key, kind, empty, end) => {
  let rows = new Map(), shown = [], emptyRow = null, sentinel = null;
  const node = kind.node$;
  if (LIST_END && end) {
    sentinel = element("li", ["class", "ac-end", "aria-hidden", "true"], ul);
    const io = new IntersectionObserver((x) => {
      if (x[0].isIntersecting) act(end);
    });
    io.observe(sentinel);
    onCleanup(() => io.disconnect());
  }
  kind.at$?.(ul);
  effect(() => {
    const xs = items() || [], emptyText = LIST_EMPTY && empty && empty();
    untracked(() => {
      const total = xs.length, next = new Map(), order = new Array(total), old = new Int32Array(total);
      let sorted = true, last = -1, kept = 0;
      for (let i = 0; i < total; i++) {
        const x = xs[i];
        let k = key(x);
        if (next.has(k)) k = k + "\0" + i;
        // Keys are unique in next, so each old row is taken once.
        let r = rows.get(k);
        if (r) {
          kind.set$(r, x);
          old[i] = r.$i;
          if (r.$i < last) sorted = false;
          last = r.$i;
          kept++;
        } else {
          r = kind.add$(x);
          old[i] = -1;
        }
        next.set(k, r);
        order[i] = r;
      }
      if (rows.size > kept) {
        let gone = rows.values();
        if (!kept && !sentinel && !emptyRow) ul.textContent = ""; // a cleared list: one DOM change
        else if (!kept) {
          const g = doc.createRange();
          g.setStartBefore(node(shown[0]));
          g.setEndAfter(node(shown[shown.length - 1]));
          g.deleteContents();
        } else {
          gone = [];
          for (const [k, r] of rows) {
            if (next.get(k) !== r) {
              node(r).remove();
              gone.push(r);
            }
          }
        }
        kind.drop$?.(gone);
      }
      rows = next;
      const added = total - kept;
      if (!kept && total) {
        // All new: one insertion of a fragment.
        const f = doc.createDocumentFragment();
        for (const r of order) f.append(node(r));
        ul.insertBefore(f, sentinel);
      } else if (added || !sorted) {
        // New rows go in by runs, one fragment per run of adjacent ones
        // (an append is one DOM change); kept rows move one by one. In
        // order, the walk ends with the last new row.
        const stay = sorted ? null : keep(old, shown.length);
        let after = sentinel, fresh = null, freshAt = null, left = added;
        for (let i = total - 1; i >= 0 && (left || stay || fresh); i--) {
          const n = node(order[i]);
          if (old[i] < 0) {
            if (!fresh) fresh = doc.createDocumentFragment(), freshAt = after;
            fresh.prepend(n);
            left--;
          } else {
            if (fresh) ul.insertBefore(fresh, freshAt), fresh = null;
            if (stay && !stay[i]) move(ul, n, after);
          }
          after = n;
        }
        if (fresh) ul.insertBefore(fresh, freshAt);
      }
      for (let i = 0; i < total; i++) if (order[i].$i !== i) order[i].$i = i;
      shown = order;
      kind.changed$?.(order);
      if (LIST_EMPTY && empty && !total) {
        if (!emptyRow) {
          emptyRow = element("li", ["class", "ac-empty"]);
          ul.insertBefore(emptyRow, sentinel);
        }
        emptyRow.textContent = text(emptyText);
      } else if (LIST_EMPTY && emptyRow) {
        emptyRow.remove();
        emptyRow = null;
      }
    });
  });
};

// general rows: render(li, item) draws an item whose signal is item into
// a row that is its own scope, owned by the list's owner.
const general = (render) => {
  const parent = owner;
  return {
    add$(x) {
      // A row is its own scope: one object per row, not two.
      const li = doc.createElement("li"), item = signal(x);
      const r = {kids$: null, cleanups$: null, parent$: parent, node$: li, item$: item, $i: -1, fx$: null};
      scope(parent, () => render(li, item), r);
      return r;
    },
    set$: (r, x) => r.item$.set(x),
    node$: (r) => r.node$,
    drop$: (rs) => dropAll(parent, rs),
  };
};

// plainRows are rows without effects (the compiler's rows.go): each is
// its <li> alone, a clone of the prototype p that holds its item ($x) and
// position ($i), and u(li, x) writes into it what item x shows, only
// where it differs. h holds the handlers of its elements by event and
// node id, which are given the row's item; s the selectors its rows
// read, each with its argument as a function of the item: a change of
// the selection rewrites the rows of its old and new value, found in an
// index by the argument that is made on the first change after the list
// changed.
const plainRows = (p, u, h, s) => {
  let picked = [], shown = [];
  rowEvent = rowDispatch;
  return {
    add$(x) {
      const li = p.cloneNode(true);
      u(li, li.$x = x);
      return li;
    },
    set$(li, x) {
      // A refreshed query's items are new objects, mostly with the same
      // fields: those rows need no update, which reads the DOM.
      if (!shallow(li.$x, x)) u(li, x);
      li.$x = x;
    },
    node$: (li) => li,
    at$(e) {
      // The properties a DOM node holds ($R here, a row's $x and $i) keep
      // their names (they do not end in $): a short name could be an
      // element's own property, and the document's listener reads $R on
      // every ancestor of a target, where a form or the document would
      // answer a short name with an element of that name.
      e.$R = h;
      for (const ev in h) listen(ev);
      s.forEach(([sel, arg], j) => {
        const l = (a, b) => untracked(() => {
          let ix = picked[j];
          if (!ix) {
            ix = picked[j] = new Map();
            for (const r of shown) {
              const k = arg(r.$x) ?? null, t = ix.get(k);
              t ? t.push(r) : ix.set(k, [r]);
            }
          }
          for (const k of a === b ? [a] : [a, b]) for (const r of ix.get(k) || none) u(r, r.$x);
        });
        sel.l = grow(sel.l, l);
        onCleanup(() => sel.l = sel.l.filter((x) => x !== l));
      });
    },
    changed$(rows) {
      shown = rows;
      picked = [];
    },
  };
};

// rowDispatch runs, for the document's listener at node n with path the
// nodes below it, the handlers that a plain row's list (its $R) holds for
// the elements of the row on the path, inner first.
const rowDispatch = (x, n, path) => {
  const t = n.$R && n.$R[x.type], li = path[path.length - 1];
  path.push(n);
  if (!t || !li || !("$x" in li)) return;
  for (const m of path) {
    const f = t[m.getAttribute("data-acore-id")];
    if (!f || x.cancelBubble) continue;
    if (x.type == "submit") x.preventDefault();
    if (!CONFIRM || confirmed(m)) act(f, li.$x);
  }
};

// shallow reports whether a and b are one value or records with the
// same fields, each one value.
const shallow = (a, b) => {
  if (a === b) return true;
  if (!a || !b || typeof a != "object" || typeof b != "object") return false;
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const k in b) n--;
  return !n;
};

// writeText and writeClass are the bindings of a row without effects:
// each writes only what differs from what the row shows. A bound text's
// element holds one text node (the prototype's).
const writeText = (e, v) => {
  v = text(v);
  const c = e.firstChild;
  if (c && c.nodeType == 3 && !c.nextSibling) {
    if (c.data !== v) c.data = v;
  } else e.textContent = v;
};
const writeClass = (e, own, v) => {
  v = text(v).trim();
  v = own && v ? own + " " + v : own || v;
  if (e.className !== v) e.className = v;
};

// selector makes "is k the value of s" cost O(1) per change of s: an
// effect that asks subscribes to k alone, and a change of s reruns only
// the effects of the old value's key and the new one's. The compiler
// uses it for a state compared with a list item's field in the item's
// view. Keys are scalars (Int, String, Bool), so === is Acore's ==.
// Lists of rows without effects listen to it instead (its l): each is
// told the old value and the new one.
const selector = (s) => {
  const keys = new Map();
  let prev;
  const sel = (k) => {
    k = k ?? null;
    if (current) {
      let t = keys.get(k);
      if (!t) keys.set(k, t = {subscribers$: null, m: keys, k});
      track(t);
    }
    return (s.value$ ?? null) === k;
  };
  sel.l = null;
  effect(() => {
    const v = s() ?? null;
    for (const k of [prev, v]) {
      const t = keys.get(k);
      if (t) for (const e of t.subscribers$) schedule(e);
    }
    if (sel.l) for (const l of sel.l) l(prev, v);
    prev = v;
  });
  return sel;
};

// call posts a contract call (docs/web.md, "Backend wire format"):
// {ok, value} or {message}.
const call = async (contract, op, args) => {
  let r, body, raw;
  try {
    r = await fetch(B + "/" + encodeURIComponent(contract) + "/" + encodeURIComponent(op),
      {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(args)});
    raw = await r.text();
  } catch {
    return {message: "network error"};
  }
  try {
    body = raw ? JSON.parse(raw) : null;
  } catch {
    body = undefined;
  }
  if (r.ok) return body === undefined ? {message: "invalid response (HTTP " + r.status + ")"} : {ok: true, value: body};
  return {message: body && body.error && typeof body.error.message == "string" ? body.error.message : "HTTP " + r.status};
};

const live = new Map(); // contract → its live queries

const signals = (data) => ({pending: signal(false), error: signal(false), error_message: signal(""), data: signal(data)});

const settle = (q, r) => {
  q.pending.set(false);
  q.error.set(!r.ok);
  q.error_message.set(r.ok ? "" : r.message);
  if (r.ok) q.data.set(r.value);
};

// query is fetched now and whenever its arguments change. It is pending
// until its first answer; later requests keep the data on the page
// until they answer (a keyed list keeps its nodes).
const query = (contract, op, args, data) => {
  const q = signals(data);
  let n = 0, a;
  q.pending.value$ = true;
  q.go$ = async () => {
    const k = ++n;
    const r = await call(contract, op, a);
    if (k === n && !q.dead$) settle(q, r);
  };
  q.refresh = () => {
    q.go$();
  };
  effect(() => {
    a = args();
    untracked(q.go$);
  });
  let l = live.get(contract);
  if (!l) live.set(contract, l = new Set());
  l.add(q);
  onCleanup(() => {
    l.delete(q);
    q.dead$ = true;
  });
  return q;
};

// mutation: run(given) reads its arguments now, those given at the run
// over the declaration's, and returns at once; success refreshes the
// contract's live queries.
const mutation = (contract, op, args) => {
  const m = signals(null);
  m.run = (given) => {
    const a = Object.assign(untracked(args), given);
    m.pending.set(true);
    return call(contract, op, a).then((r) => {
      settle(m, r);
      if (r.ok) for (const q of live.get(contract) || []) q.refresh();
    });
  };
  return m;
};

const extern = (name, args) => {
  try {
    const f = XS[name];
    Promise.resolve(f(args)).catch((x) => console.error(x));
  } catch (x) {
    console.error(x);
  }
};

// The router: routes on the History API, or in the URL's fragment
// (#/path) when HASH is set. R is [[path, page, args, ints], ...]: a
// route's literal arguments and the names of its Int parameters.
let page = null, shown = null, params = null, focusNext = false;
const root = doc.getElementById("app");

// routeURL fills the :name segments of a route path with args.
const routeURL = (path, args) => {
  const i = path.search(/[?#]/), tail = i < 0 ? "" : path.slice(i);
  return (i < 0 ? path : path.slice(0, i)).split("/")
    .map((s) => s[0] == ":" ? encodeURIComponent(text(args[s.slice(1)])) : s).join("/") + tail;
};

// here is a URL's path, query and fragment.
const here = (u) => u.pathname + u.search + u.hash;

const navigate = (path) => {
  if (HASH) {
    if (location.hash.slice(1) !== path) {
      focusNext = true;
      location.hash = path;
    }
  } else if (here(location) !== path) {
    history.pushState(null, "", path);
    showRoute(true);
  }
};

// match returns the page parameters route r gives path, or null.
const match = (r, path) => {
  if (!PARAMS) return r[0] === path ? {} : null;
  const want = r[0].split("/"), got = path.split("/"), v = {...r[2]};
  if (want.length != got.length) return null;
  for (let i = 0; i < want.length; i++) {
    const w = want[i];
    if (w[0] != ":") {
      if (w !== got[i]) return null;
      continue;
    }
    let x;
    try {
      x = decodeURIComponent(got[i]);
    } catch {
      return null;
    }
    const n = w.slice(1);
    if (r[3] && r[3].includes(n)) {
      if (!/^-?\d+$/.test(x)) return null;
      x = Number(x);
    }
    if (x === "") return null;
    v[n] = x;
  }
  return v;
};

// showRoute renders the page of the current path; focus moves to it
// after a navigation. A route of the page already shown keeps it and
// sets its parameters.
const showRoute = (focus) => {
  let path = HASH ? location.hash.slice(1).split("?")[0] || "/" : location.pathname;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  let render = null, v = null;
  for (const r of R) {
    if ((v = match(r, path))) {
      render = r[1];
      break;
    }
  }
  if (render && render === shown) {
    params.set(v);
    return;
  }
  if (page) kill(page);
  root.textContent = "";
  shown = render;
  params = signal(v);
  page = scope(null, () => {
    const w = element("main", ["class", "ac-page", "tabindex", "-1"], root);
    if (render) {
      render(w, params);
    } else {
      w.classList.add("ac-404");
      element("h1", [], w, 0, "Page not found");
      element("p", [], w, 0, "There is no page at " + path + ".");
      const home = element("a", ["href", HASH ? "#/" : "/"], w, 0, "Go to the home page");
      // Without navigation in the app, the link loads the home page.
      if (NAV) link(home);
    }
    if (focus) {
      scrollTo(0, 0);
      w.focus();
    }
  });
};

// link makes a plain click on a link navigate in the app: its href is
// a path of the app (routePath).
const link = (a) => {
  a.addEventListener("click", (x) => {
    if (x.button || x.metaKey || x.ctrlKey || x.shiftKey || x.altKey || a.target) return;
    const u = new URL(a.href, location.href);
    x.preventDefault();
    navigate(HASH ? u.hash.slice(1) : here(u));
  });
  return a;
};

if (HASH) {
  addEventListener("hashchange", () => {
    showRoute(focusNext);
    focusNext = false;
  });
} else {
  addEventListener("popstate", () => showRoute(false));
}

// derived makes a derived value (a let member): a signal that an effect
// keeps equal to f(), so what reads it is rerun only when its value
// changes. The compiler creates them in dependency order, so one is
// recomputed before the effects that read it (flush runs the oldest
// first).
const derived = (f) => {
  const s = signal(undefined);
  effect(() => s.set(f()));
  return s;
};

// The values of Acore 1.1's expressions (docs/language.md 4.11). Lists
// are never changed in place: each gives a new list.
const index = (xs, i) => xs != null && i >= 0 && i < xs.length ? xs[i] : null;
const last = (xs) => index(xs, xs ? xs.length - 1 : -1);
const concat = (a, b) => (a || []).concat(b || []);
// sortBy is stable (Array.prototype.sort is) and compares Strings by
// UTF-16 code units, numbers by value.
const sortBy = (xs, f) => xs.map((x) => [f(x), x]).sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0).map((p) => p[1]);
const take = (xs, n) => xs.slice(0, Math.max(0, n));
const find = (xs, f) => {
  for (const x of xs) if (f(x)) return x;
  return null;
};
const fixed = (n, d) => n.toFixed(Math.min(20, Math.max(0, d)));
// replace and split with an empty pattern: unchanged, and the scalars.
const replace = (s, a, b) => a ? s.split(a).join(b) : s;
const split = (s, sep) => sep ? s.split(sep) : [...s];
const withFields = (r, changes) => Object.assign({}, r, changes);

// The runtime's API: the only names the compiled app calls. A build
// keeps of them the ones its app names and drops what none of those
// needs (assets.Runtime).
export {
  signal as S, derived as D, persisted as PS, query as Q, mutation as M, extern as X, selector as SEL, navigate as nav,
  showRoute as show, routeURL as pth, element as h, action as ax, general as G, plainRows as PL, bindText as tx, bindProp as pr, bindStyle as st,
  bindAttr as at, routePath as rp, hashPath as rh, imageSource as ri, on, onKey as ky, bindValue as bv,
  bindChecked as bc, options as opts, link as lk, list as L, conditional as IF, flex as FX, text as str, div as dv,
  rem as md, length as len, count as cnt, isEmpty as emp, equal as eq, index as ix, last as la, concat as ca,
  sortBy as srt, take as tk, find as fd, fixed as fx, replace as rpl, split as spl, withFields as wi, bindClass as cl,
  autofocus as af, writeText as wt, writeClass as wc
};
