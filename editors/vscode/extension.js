// The Acore extension starts `axiom lsp` and hands it the .acore and
// contract files of the workspace; every feature comes from the server.
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
    ],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
