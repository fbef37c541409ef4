// External judges of the `skills-http` component (build/component/skills-edge-http.wasm)
// served by a component runtime on a free 127.0.0.1 port (`jco serve`, or `wasmtime serve`
// with SKILLS_EDGE_COMPONENT_RUNTIME=wasmtime; see harness.mjs), on both protocol eras
// (tests/judges/): the official TypeScript SDK client 2.4 (SkillsClient) over its Streamable
// HTTP transport, walking every page, entry, file and directory, and MCP Inspector 2.12
// `--cli URL --method skills/list --verify`. PAGE_SIZE=2, so every list is followed through
// its cursors.
import { before, after } from "node:test";
import { RUNTIME, RUNTIMES, componentPath, remove, scratchDir, serve } from "./harness.mjs";
import { httpTransport } from "../judges/sdk.mjs";
import { judgeTests } from "../judges/suite.mjs";

const PAGE_SIZE = 2;
let dir;
let server;

before(async () => {
  dir = scratchDir(`judges-${RUNTIME}`);
  server = await serve(componentPath("skills-edge-http"), { scratch: dir, env: { PAGE_SIZE: String(PAGE_SIZE) } });
});

after(async () => {
  await server?.stop();
  remove(dir);
});

judgeTests(`skills-edge-http.wasm on ${RUNTIMES[RUNTIME]}`, {
  pageSize: PAGE_SIZE,
  sdkTransport: () => httpTransport(server.url),
  inspectorTarget: () => server.url,
});
