// Validates AXAG manifests with ajv (draft 2020-12) and ajv-formats, an
// independent second validator. Usage:
//   node ajv-validate.js <dir with node_modules> <schema file> <manifest>...
// Prints one line per manifest, "valid <file>" or "invalid <file> <errors>",
// and exits 0 (the Go test reads the lines).
const path = require("path");
const fs = require("fs");
const dir = process.argv[2];
const Ajv2020 = require(path.join(dir, "node_modules", "ajv", "dist", "2020")).default;
const addFormats = require(path.join(dir, "node_modules", "ajv-formats")).default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(process.argv[3], "utf8")));
for (const file of process.argv.slice(4)) {
  const ok = validate(JSON.parse(fs.readFileSync(file, "utf8")));
  console.log((ok ? "valid " : "invalid ") + file + (ok ? "" : " " + JSON.stringify(validate.errors)));
}
