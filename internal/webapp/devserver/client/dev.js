// The axiom dev client, injected into every page `axiom dev` serves. It
// listens to /_axiom/events: `reload` reloads the page, `error` shows the
// build's diagnostics in an overlay. It reconnects when the server goes
// away; a page served from another build (a restarted server, or a build it
// missed) reloads. Text only ever goes in through textContent.

const meta = document.querySelector('meta[name="axiom-dev-build"]');
const pageBuild = meta ? meta.getAttribute("content") : "";
let reloading = false;
let overlay = null;

function reload() {
  if (!reloading) {
    reloading = true;
    location.reload();
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const style = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; z-index: 2147483647; overflow: auto;
  background: rgba(10, 12, 16, 0.74); backdrop-filter: blur(2px);
  font: 13px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; color: #e6e6e6; }
.panel { position: relative; box-sizing: border-box; width: min(960px, calc(100% - 48px)); margin: 8vh auto; padding: 22px 26px 18px;
  background: #1b1d24; border-top: 4px solid #e5484d; border-radius: 8px;
  box-shadow: 0 18px 48px rgba(0, 0, 0, 0.55); }
h1 { margin: 0 40px 4px 0; color: #ff6b6b; font: 600 20px/1.3 system-ui, -apple-system, "Segoe UI", sans-serif; }
.summary { margin: 0 0 16px; color: #a0a4ae; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
ul { list-style: none; margin: 0; padding: 0; }
li { padding: 8px 12px; margin: 0 0 6px; background: #22252e; border-left: 3px solid #e5484d; border-radius: 4px;
  white-space: pre-wrap; word-break: break-word; }
li.warning { border-left-color: #f5a524; opacity: 0.8; }
.loc { color: #8ab4f8; }
.sev { color: #ff6b6b; font-weight: 600; }
li.warning .sev { color: #f5a524; }
.code { color: #80848e; }
details { margin-top: 10px; }
summary { cursor: pointer; color: #a0a4ae; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin-bottom: 8px; }
.hint { margin: 14px 0 0; color: #80848e; font: 12px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
button { position: absolute; top: 14px; right: 16px; width: 30px; height: 30px; border: 0; border-radius: 6px;
  background: transparent; color: #a0a4ae; font: 20px/1 system-ui, sans-serif; cursor: pointer; }
button:hover { background: #2c2f39; color: #fff; }
`;

function count(n, word) {
  return n + " " + word + (n === 1 ? "" : "s");
}

function item(d) {
  const li = el("li", d.severity === "error" ? "error" : "warning");
  li.append(
    el("span", "loc", d.path + ":" + d.line + ":" + d.column),
    ": ",
    el("span", "sev", d.severity),
    ": " + d.message + " ",
    el("span", "code", "[" + d.code + "]"),
  );
  return li;
}

function show(failure) {
  hide();
  const diags = failure.diagnostics || [];
  const errors = diags.filter((d) => d.severity === "error");
  const warnings = diags.filter((d) => d.severity !== "error");
  const host = el("axiom-dev-overlay");
  const root = host.attachShadow({ mode: "open" });
  const backdrop = el("div", "backdrop");
  backdrop.setAttribute("role", "alertdialog");
  backdrop.setAttribute("aria-label", "Build failed");
  const panel = el("div", "panel");
  const close = el("button", "", "\u00d7");
  close.setAttribute("aria-label", "Close");
  close.addEventListener("click", hide);
  panel.append(close, el("h1", "", "Build failed"));
  const parts = [];
  if (errors.length) parts.push(count(errors.length, "error"));
  if (warnings.length) parts.push(count(warnings.length, "warning"));
  panel.append(el("p", "summary", parts.join(", ") || "The build failed."));
  const list = el("ul");
  if (failure.error) list.append(el("li", "error", failure.error));
  for (const d of errors) list.append(item(d));
  panel.append(list);
  if (warnings.length) {
    const more = el("details");
    const wl = el("ul");
    for (const d of warnings) wl.append(item(d));
    more.append(el("summary", "", count(warnings.length, "warning")), wl);
    panel.append(more);
  }
  panel.append(el("p", "hint", "The page still runs the last good build. Fix the sources and save: it reloads when the build succeeds."));
  const st = el("style");
  st.textContent = style;
  backdrop.append(panel);
  root.append(st, backdrop);
  document.documentElement.append(host);
  overlay = host;
}

function hide() {
  if (overlay) {
    overlay.remove();
    overlay = null;
  }
}

let current = null;
let retry = 0;

function disconnect() {
  clearTimeout(retry);
  if (current) {
    current.close();
    current = null;
  }
}

function connect() {
  disconnect();
  const es = new EventSource("/_axiom/events");
  current = es;
  es.addEventListener("hello", (e) => {
    const h = JSON.parse(e.data);
    if (pageBuild && h.build !== pageBuild) {
      reload();
    } else if (h.failure) {
      show(h.failure);
    } else {
      hide();
    }
  });
  es.addEventListener("reload", reload);
  // A server-sent `error` event carries data; the EventSource's own error
  // (connection lost) does not. The browser retries by itself until it
  // gives up (CLOSED); then this retries every second.
  es.addEventListener("error", (e) => {
    if (typeof e.data === "string") {
      show(JSON.parse(e.data));
    } else if (es.readyState === EventSource.CLOSED && current === es) {
      current = null;
      retry = setTimeout(connect, 1000);
    }
  });
}

// Only a visible page holds a stream: browsers allow six connections per
// host over HTTP/1.1, and each open stream keeps one. A page shown again
// connects, and its hello tells it whether it missed a build. Closing
// before unloading keeps the browser from reporting a failed connection.
document.addEventListener("visibilitychange", () => (document.hidden ? disconnect() : connect()));
addEventListener("pagehide", disconnect);
addEventListener("pageshow", (e) => e.persisted && !document.hidden && connect());
if (!document.hidden) connect();
