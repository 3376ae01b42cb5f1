// The Acore extension starts `axiom lsp` and hands it the .acore and
// contract files of the workspace and the UI lock; every feature comes
// from the server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("acore").get("server.path") || "axiom";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient("acore", "Acore", { run: server, debug: server }, {
    documentSelector: [
      { scheme: "file", language: "acore" },
      { scheme: "file", language: "acore-contract" },
      // The lock too: a rename of a local contract's field edits it with
      // the contract, and the server must see the edited buffer, not the
      // lock on disk, until it is saved.
      { scheme: "file", pattern: "**/.axiom/ui.lock" },
    ],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
