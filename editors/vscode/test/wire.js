// The wire test: VS Code's own protocol client drives the built
// `axiom lsp` binary over stdio on a copy of examples/reading-list.
// Usage: node test/wire.js <axiom binary> <project dir>. Exits non-zero
// with the failed check; the Go test (editors_test.go) runs it and then
// `axiom check` on the renamed project.
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const { pathToFileURL, fileURLToPath } = require("url");
const lsp = require("vscode-languageserver-protocol/node");

const [axiom, root] = process.argv.slice(2);
const proc = spawn(axiom, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
const conn = lsp.createProtocolConnection(new lsp.StreamMessageReader(proc.stdout), new lsp.StreamMessageWriter(proc.stdin));
const uri = (rel) => pathToFileURL(path.join(root, rel)).href;
const read = (rel) => fs.readFileSync(path.join(root, rel), "utf8");

const diags = new Map();
const waiters = [];
conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
  diags.set(p.uri, p.diagnostics);
  for (const w of waiters.splice(0)) w();
});
conn.onRequest(lsp.RegistrationRequest.type, () => null);
let refreshes = 0;
const refreshWaiters = [];
conn.onRequest(lsp.InlayHintRefreshRequest.type, () => {
  refreshes++;
  for (const w of refreshWaiters.splice(0)) w();
  return null;
});
conn.onNotification(lsp.LogMessageNotification.type, () => {});
conn.listen();

function fail(msg) {
  console.error("FAIL: " + msg);
  process.exit(1);
}
async function waitDiags(rel, ok, what) {
  const deadline = Date.now() + 20000;
  for (;;) {
    const d = diags.get(uri(rel));
    if (d && ok(d)) return d;
    if (Date.now() > deadline) fail(`${what}: diagnostics of ${rel} are ${JSON.stringify(d)}`);
    await new Promise((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 1000);
    });
  }
}
// waitHints asks for the inlay hints of rel again after each refresh the
// server sends, as VS Code does, until ok holds.
async function waitHints(rel, ok, what) {
  const deadline = Date.now() + 20000;
  for (;;) {
    const before = refreshes;
    const hs = await conn.sendRequest(lsp.InlayHintRequest.type, { textDocument: { uri: uri(rel) }, range: { start: { line: 0, character: 0 }, end: { line: 10000, character: 0 } } });
    if (ok(hs || [])) return hs;
    if (Date.now() > deadline) fail(`${what}: inlay hints of ${rel} are ${JSON.stringify(hs)}`);
    await new Promise((resolve) => {
      if (refreshes !== before) return resolve();
      refreshWaiters.push(resolve);
      setTimeout(resolve, 1000);
    });
  }
}
// pos is the UTF-16 position of the n-th occurrence of needle in text
// (JavaScript strings count UTF-16 units, as the protocol's default).
function pos(text, needle, n = 0, after = false) {
  let i = -1;
  for (let k = 0; k <= n; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) fail(`${needle} not found`);
  }
  if (after) i += needle.length;
  const before = text.slice(0, i).split("\n");
  return { line: before.length - 1, character: before[before.length - 1].length };
}
function offset(text, p) {
  const lines = text.split("\n");
  let o = 0;
  for (let l = 0; l < p.line; l++) o += lines[l].length + 1;
  return o + p.character;
}

(async () => {
  const init = await conn.sendRequest(lsp.InitializeRequest.type, {
    processId: process.pid, rootUri: null, capabilities: { workspace: { inlayHint: { refreshSupport: true } } },
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: "reading-list" }],
  });
  if (init.capabilities.positionEncoding !== "utf-16") fail("encoding " + init.capabilities.positionEncoding);
  await conn.sendNotification(lsp.InitializedNotification.type, {});

  const main = read("main.acore"), add = read("pages/add.acore");
  await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: uri("main.acore"), languageId: "acore", version: 1, text: main } });
  await conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, { textDocument: { uri: uri("pages/add.acore"), languageId: "acore", version: 1, text: add } });
  await waitDiags("main.acore", (d) => !d.some((x) => x.severity === 1), "the example");
  if (!init.capabilities.inlayHintProvider) fail("no inlay hints");
  // The AXAG action of a mutation, after it, as the manifest gives it.
  const hs = await waitHints("main.acore", (h) => h.some((x) => String(x.label).startsWith("AXAG book.delete: delete, risk high")), "the AXAG action of remove");
  const del = hs.find((x) => String(x.label).startsWith("AXAG book.delete"));
  if (del.position.line !== pos(main, "mutation remove").line) fail("the AXAG hint of remove is on line " + (del.position.line + 1));

  // A type error appears as it is typed and goes when it is undone.
  const at = pos(add, `state title: String = ""`, 0, true);
  const start = { line: at.line, character: at.character - 2 };
  await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: uri("pages/add.acore"), version: 2 }, contentChanges: [{ range: { start, end: at }, text: "1" }] });
  await waitDiags("pages/add.acore", (d) => d.some((x) => x.code === "AC301"), "a type error");
  await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: uri("pages/add.acore"), version: 3 }, contentChanges: [{ range: { start, end: { line: start.line, character: start.character + 1 } }, text: `""` }] });
  await waitDiags("pages/add.acore", (d) => !d.some((x) => x.severity === 1), "the error undone");

  // UTF-16: an unknown name after an emoji on its line is found where it is.
  const emoji = main.replace(`PageTitle(title: "Reading list"`, `Text("📚 " + nope)\n      PageTitle(title: "Reading list"`);
  await conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: uri("main.acore"), version: 2 }, contentChanges: [{ text: emoji }] });
  const ds = await waitDiags("main.acore", (d) => d.some((x) => x.code === "AC201"), "the unknown name");
  const want = pos(emoji, "nope");
  const got = ds.find((x) => x.code === "AC201").range;
  if (got.start.line !== want.line || got.start.character !== want.character || got.end.character !== want.character + 4) fail("AC201 at " + JSON.stringify(got) + ", want " + JSON.stringify(want));
  // Ordering: a hover sent right after a change, unawaited, sees it.
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, { textDocument: { uri: uri("main.acore"), version: 3 }, contentChanges: [{ text: main }] });
  const hover = await conn.sendRequest(lsp.HoverRequest.type, { textDocument: { uri: uri("main.acore") }, position: pos(main, "order", 1) });
  if (!hover || !hover.contents.value.includes("state:Home.order")) fail("hover " + JSON.stringify(hover));

  const def = await conn.sendRequest(lsp.DefinitionRequest.type, { textDocument: { uri: uri("main.acore") }, position: pos(main, "PageTitle(") });
  const loc = Array.isArray(def) ? def[0] : def;
  if (!loc || !fileURLToPath(loc.uri).endsWith(path.join("components", "page_title.acore"))) fail("definition " + JSON.stringify(def));
  const refs = await conn.sendRequest(lsp.ReferencesRequest.type, { textDocument: { uri: uri("main.acore") }, position: pos(main, "subtitle"), context: { includeDeclaration: true } });
  if (refs.length !== 5) fail(refs.length + " references of subtitle");
  const format = await conn.sendRequest(lsp.DocumentFormattingRequest.type, { textDocument: { uri: uri("main.acore") }, options: { tabSize: 2, insertSpaces: true } });
  if (format.length !== 0) fail("formatting a formatted file: " + JSON.stringify(format));
  const comp = await conn.sendRequest(lsp.CompletionRequest.type, { textDocument: { uri: uri("main.acore") }, position: pos(main, `books.`, 0, true) });
  const labels = (comp.items || comp).map((i) => i.label);
  if (!labels.includes("data") || !labels.includes("refresh")) fail("completion after books.: " + labels);

  // Rename a prop used in three files, apply the edit to the files.
  const edit = await conn.sendRequest(lsp.RenameRequest.type, { textDocument: { uri: uri("main.acore") }, position: pos(main, "subtitle"), newName: "caption" });
  let n = 0;
  for (const [u, edits] of Object.entries(edit.changes)) {
    const file = fileURLToPath(u);
    let text = fs.readFileSync(file, "utf8");
    for (const e of [...edits].sort((a, b) => offset(text, b.range.start) - offset(text, a.range.start))) {
      text = text.slice(0, offset(text, e.range.start)) + e.newText + text.slice(offset(text, e.range.end));
      n++;
    }
    fs.writeFileSync(file, text);
  }
  if (n !== 5) fail(n + " rename edits");
  try {
    await conn.sendRequest(lsp.RenameRequest.type, { textDocument: { uri: uri("main.acore") }, position: { ...pos(main, "state order", 0, true), character: pos(main, "state order", 0, true).character - 2 }, newName: "books" });
    fail("a rename onto a taken name was made");
  } catch (e) {
    if (!String(e.message).includes("already has query books")) fail("refusal " + e.message);
  }

  await conn.sendRequest(lsp.ShutdownRequest.type);
  await conn.sendNotification(lsp.ExitNotification.type);
  const code = await exited;
  if (code !== 0) fail("axiom lsp exited with " + code);
  console.log("ok");
  process.exit(0);
})().catch((e) => fail(e.stack || String(e)));
