// Checks JSON documents against a JSON Schema (draft-07) with Ajv: `node validate_json_schema.mjs
// SCHEMA.json` reads one document per line on stdin and prints, for each line, "ok" or the
// schema errors. Exit 0 when every line is valid, 1 otherwise. Used by test_hook.py for the
// shapes Codex publishes for hook output.
import { readFileSync } from "node:fs";
import Ajv from "ajv";

const schema = JSON.parse(readFileSync(process.argv[2], "utf8"));
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const lines = readFileSync(0, "utf8").split("\n").filter((l) => l.trim() !== "");
let bad = 0;
for (const line of lines) {
  if (validate(JSON.parse(line))) {
    console.log("ok");
  } else {
    bad++;
    console.log(JSON.stringify(validate.errors));
  }
}
process.exit(bad ? 1 : 0);
