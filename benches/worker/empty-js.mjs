// A baseline of the benchmark: a plain JavaScript Worker that answers every request with a
// fixed body (the cheapest request workerd can serve).
const BODY = '{"jsonrpc":"2.0","id":1,"result":{}}';
export default {
  fetch() {
    return new Response(BODY, { headers: { "content-type": "application/json" } });
  },
};
