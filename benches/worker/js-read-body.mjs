// A baseline of the benchmark: a plain JavaScript Worker that reads the request body and then
// answers with a fixed body. Every MCP server must read the body, so this is the floor for a
// Worker that answers MCP over Streamable HTTP, in any language.
const BODY = '{"jsonrpc":"2.0","id":1,"result":{}}';
export default {
  async fetch(request) {
    await request.arrayBuffer();
    return new Response(BODY, { headers: { "content-type": "application/json" } });
  },
};
