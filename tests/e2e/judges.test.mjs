// External judges of the Worker on real workerd (`wrangler dev`, a free 127.0.0.1 port), on
// both protocol eras (tests/judges/): the official TypeScript SDK client 2.4 (SkillsClient)
// over its Streamable HTTP transport, walking every page, entry, file and directory, and MCP
// Inspector 2.12 `--cli URL --method skills/list --verify`. PAGE_SIZE=3, so every list
// is followed through its cursors. Run with Node 22.
import { before, after } from "node:test";
import { startWorker } from "./lib/worker.mjs";
import { httpTransport } from "../judges/sdk.mjs";
import { judgeTests } from "../judges/suite.mjs";

const PAGE_SIZE = 3;
let worker;

before(async () => {
  worker = await startWorker({ vars: { PAGE_SIZE: String(PAGE_SIZE) } });
});

after(async () => {
  await worker?.stop();
});

judgeTests("the Worker on wrangler dev", {
  pageSize: PAGE_SIZE,
  sdkTransport: () => httpTransport(worker.url),
  inspectorTarget: () => worker.url,
});
