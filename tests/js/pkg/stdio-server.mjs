// The package's in-page SkillsServer behind MCP's stdio transport, for clients that need a
// command to run (MCP Inspector): newline-delimited JSON-RPC on stdin, each line answered with
// `server.handleText(line)` on stdout (notifications get no answer), exit at end of input.
// Usage: node stdio-server.mjs [pageSize] [--tamper URI]
// `--tamper URI` is the control of the judges' tests: the last character of that file's text is
// changed in every resources/read reply (same length), so a judge that verifies must refuse it.
import { createInterface } from "node:readline";
import { SkillsServer } from "skills-edge";

const [pageArg, flag, tamper] = process.argv.slice(2);
if (flag !== undefined && (flag !== "--tamper" || tamper === undefined)) {
  process.stderr.write("usage: node stdio-server.mjs [pageSize] [--tamper URI]\n");
  process.exit(2);
}
const server = new SkillsServer({ pageSize: Number(pageArg ?? 50) });
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
