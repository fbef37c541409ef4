// The judges' tests for one server, registered with node:test: for each protocol era
// (2026-07-28 pinned, 2025-11-25 legacy), the SDK client judge (sdk.mjs) and the MCP
// Inspector judge (inspector.mjs). Every server under test serves the repository's skills/
// folder, so both judges' counts must equal what that folder publishes (folder.mjs).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ERAS, judgeSdk } from "./sdk.mjs";
import { judgeInspector } from "./inspector.mjs";
import { published } from "./folder.mjs";

/**
 * Registers four tests under `label`. `sdkTransport(era)` returns a transport factory for the
 * SDK client (sdk.mjs `httpTransport(url)` or `inProcessTransport(handle)`);
 * `inspectorTarget(era)` returns the Inspector's target (a URL, or `{ command, args }`);
 * both are called when the test runs, after the server started. `pageSize` is the server's
 * page size: skills/list must then take exactly ceil(skills / pageSize) pages.
 */
export function judgeTests(label, { sdkTransport, inspectorTarget, pageSize }) {
  const expected = published();
  describe(`judges of ${label}`, () => {
    for (const era of Object.keys(ERAS)) {
      test(`official SDK client 2.4 SkillsClient, ${era} (${ERAS[era]})`, { timeout: 150_000 }, async (t) => {
        const s = await judgeSdk({ transport: sdkTransport(era), era });
        assert.equal(s.protocolVersion, ERAS[era]);
        assert.deepEqual(
          { skills: s.skills, files: s.files, bytes: s.bytes, dirs: s.dirs },
          expected,
          "the catalog the SDK client walked is what skills/ publishes",
        );
        if (pageSize !== undefined) {
          assert.equal(s.listPages.length, Math.ceil(expected.skills / pageSize), `skills/list pages of ${pageSize}`);
        }
        assert.ok(s.textFiles > 0 && s.binaryFiles > 0, "text and binary files were read");
        t.diagnostic(
          `${s.skills} skills, ${s.files} files (${s.textFiles} text, ${s.binaryFiles} blob, ${s.bytes} bytes), ` +
            `${s.dirs} directories; skills/list in ${s.listPages.length} page(s) of ${s.listPages.join("+")}; ` +
            `requests ${JSON.stringify(s.requests)}`,
        );
      });

      test(`MCP Inspector 2.12 --verify, ${era} (${ERAS[era]})`, { timeout: 150_000 }, async (t) => {
        const r = await judgeInspector({ target: inspectorTarget(era), era, expectedSkills: expected.skills });
        assert.equal(r.files, expected.files, "every file of every manifest verified");
        assert.equal(r.bytes, expected.bytes, "bytes verified");
        t.diagnostic(`${r.skills} skills, ${r.files} files verified: ${r.stderr.split("\n").at(-1)}`);
      });
    }
  });
}
