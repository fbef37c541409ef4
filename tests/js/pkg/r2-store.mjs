// Reads a whole bucket of wrangler's local R2 store (`--local --persist-to DIR`) the way
// wrangler's own `r2 object` commands read it: Miniflare (the repository's, the one wrangler
// runs) over `DIR/v3`, with the bucket bound. One Miniflare start reads every object, where
// `wrangler r2 object get` starts wrangler once per key. Never run it while a command writes
// to the same store.
//
// Miniflare needs Node 22.12, so `readStore` runs this file with the repository's Node 22
// (node_modules/.bin/node): `node r2-store.mjs REPO DIR BUCKET` prints the bucket as JSON.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);

/**
 * Every object of `bucket` in the local store `persistTo`, as a Map of key to its bytes, in the
 * order the bucket lists them. `repo` is the repository root (its node_modules holds Node 22
 * and Miniflare).
 */
export function readStore(repo, persistTo, bucket) {
  return new Promise((resolve, reject) => {
    execFile(join(repo, "node_modules", ".bin", "node"), [SELF, repo, persistTo, bucket], { timeout: 60_000, maxBuffer: 256 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`reading ${bucket} in ${persistTo}: ${err.message}\n${stderr}`));
      resolve(new Map(JSON.parse(stdout).map(([k, b64]) => [k, Buffer.from(b64, "base64")])));
    });
  });
}

/** The objects of `bucket` in `persistTo` as `[key, base64]` pairs, read in this process. */
async function dump(repo, persistTo, bucket) {
  const { Miniflare, convertV4MiniflareOptions } = createRequire(join(repo, "package.json"))("miniflare");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default {}",
      resourcePersistencePath: join(persistTo, "v3"),
      r2Buckets: { BUCKET: bucket },
    }),
  );
  try {
    const b = await mf.getR2Bucket("BUCKET");
    const out = [];
    let cursor;
    do {
      const page = await b.list({ cursor, limit: 1000 });
      for (const o of page.objects) {
        const body = await b.get(o.key);
        if (body === null) throw new Error(`${bucket}/${o.key} was listed but cannot be read`);
        out.push([o.key, Buffer.from(await body.arrayBuffer()).toString("base64")]);
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return out;
  } finally {
    await mf.dispose();
  }
}

if (process.argv[1] === SELF) {
  const [repo, persistTo, bucket] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await dump(repo, persistTo, bucket)));
}
