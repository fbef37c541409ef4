// The package's in-page SkillsServer behind MCP's stdio transport, for clients that need a
// command to run (MCP Inspector): newline-delimited JSON-RPC on stdin, each line answered with
// `server.handleText(line)` on stdout (notifications get no answer), exit at end of input.
// Usage: node stdio-server.mjs [--page-size N] [--pack FILE] [--tamper URI]
// `--pack` serves a pack instead of the embedded catalog. `--tamper URI` is the control of the
// judges' tests: the last character of that file's text is changed in every resources/read
// reply (same length), so a judge that verifies must refuse it.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { SkillsServer } from "skills-edge";

let values;
try {
  ({ values } = parseArgs({
    options: { "page-size": { type: "string", default: "50" }, pack: { type: "string" }, tamper: { type: "string" } },
  }));
} catch (e) {
  process.stderr.write(`${e.message}\nusage: node stdio-server.mjs [--page-size N] [--pack FILE] [--tamper URI]\n`);
  process.exit(2);
}
const server = new SkillsServer({
  pageSize: Number(values["page-size"]),
  ...(values.pack === undefined ? {} : { pack: readFileSync(values.pack) }),
});
const tamper = values.tamper;
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  let reply = server.handleText(line);
  if (reply === undefined) return;
  if (tamper !== undefined) {
    const message = JSON.parse(reply);
    for (const c of message.result?.contents ?? []) {
      if (c.uri === tamper && typeof c.text === "string") c.text = c.text.slice(0, -1) + (c.text.endsWith("\n") ? "x" : "\n");
    }
    reply = JSON.stringify(message);
  }
  process.stdout.write(`${reply}\n`);
});
