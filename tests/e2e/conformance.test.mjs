// The official MCP conformance suite (@modelcontextprotocol/conformance) against the Worker
// on real workerd (wrangler dev).
//
// * The three Skills-extension scenarios run at 2026-07-28 and at 2025-11-25, once with the
//   default page size and once with PAGE_SIZE=2 (so skills/list, resources/list and
//   resources/directory/read really paginate). Every check must be SUCCESS: no FAILURE, no
//   WARNING, and the scenario must not be skipped. The one allowance: at 2025-11-25 the suite
//   itself skips the two cache-attribute checks, because ttlMs and cacheScope only exist from
//   2026-07-28 (they are reported SKIPPED "not applicable on negotiated protocol").
// * The core scenarios run at 2026-07-28 against the expected-failures file: a failing or
//   warning check must be listed there (with its reason), and a listed one must still fail.
// * With FALLBACK=tools,prompts (the tools and prompts fallback), the core scenarios and every
//   scenario of the 2026-07-28 requirement set that needs tools or prompts run again, against
//   a second file (expected-failures-fallback.yml) that lists only what needs the suite's own
//   `test_*` fixtures; tools-list, prompts-list and the tools/prompts cache hints must pass.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { startWorker, ROOT } from "./lib/worker.mjs";
import { counts, runScenario as run } from "./lib/mcp.mjs";
import { tempDir } from "../lib/processes.mjs";

const EXPECTED = join(ROOT, "tests", "e2e", "expected-failures.yml");
const EXPECTED_FALLBACK = join(ROOT, "tests", "e2e", "expected-failures-fallback.yml");
const SKILLS_SCENARIOS = [
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
  "sep-2640-skills-directory",
];
const CORE_SCENARIOS = [
  "server-stateless",
  "caching",
  "dns-rebinding-protection",
  "sep-2164-resource-not-found",
  "resources-list",
];
// The scenarios of the 2026-07-28 requirement set that need tools or prompts, rerun with the
// fallback on (completion-complete needs completions, which the fallback does not offer).
const FALLBACK_SCENARIOS = [
  ...CORE_SCENARIOS,
  "tools-list",
  "prompts-list",
  "server-sse-multiple-streams",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "input-required-result-basic-elicitation",
  "input-required-result-basic-sampling",
  "input-required-result-basic-list-roots",
  "input-required-result-request-state",
  "input-required-result-multiple-input-requests",
  "input-required-result-multi-round",
  "input-required-result-missing-input-response",
  "input-required-result-non-tool-request",
  "input-required-result-result-type",
  "input-required-result-unsupported-methods",
  "input-required-result-tampered-state",
  "input-required-result-capability-check",
  "input-required-result-ignore-extra-params",
  "input-required-result-validate-input",
];
// Checks the suite skips by protocol version: defined only from 2026-07-28.
const SKIPPED_BELOW_2026 = {
  "sep-2640-skills-enumeration": [
    "sep-2640-skills-list-cache-attributes",
    "sep-2640-skills-get-cache-attributes",
  ],
};

const outRoot = tempDir("conformance");
after(() => rmSync(outRoot, { recursive: true, force: true }));
const runScenario = (url, scenario, version, options = {}) => run(url, scenario, version, { outRoot, ...options });


function describeBad(checks, keep) {
  return checks
    .filter(keep)
    .map((c) => `  ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ""}`)
    .join("\n");
}

const summary = [];
after(() => {
  console.log("\nconformance summary (SUCCESS/FAILURE/WARNING/SKIPPED):");
  for (const s of summary) console.log(`  ${s}`);
});

function assertAllSuccess(result, scenario, version, label) {
  assert.ok(result.checks, `${scenario} at ${version}: no checks.json (exit ${result.code})\n${result.output}`);
  assert.ok(result.checks.length > 0, `${scenario} at ${version} ran no checks (skipped?)\n${result.output}`);
  assert.doesNotMatch(result.output, /SKIPPED: scenario/, `${scenario} at ${version} was skipped`);
  const allowedSkips = version === "2025-11-25" ? (SKIPPED_BELOW_2026[scenario] ?? []) : [];
  const bad = (c) =>
    c.status === "FAILURE" ||
    c.status === "WARNING" ||
    (c.status === "SKIPPED" && !allowedSkips.includes(c.id)) ||
    !["SUCCESS", "SKIPPED"].includes(c.status);
  assert.equal(describeBad(result.checks, bad), "", `${scenario} at ${version}: checks not SUCCESS`);
  // The version-skipped checks must be exactly those, and skipped for that reason.
  const skipped = result.checks.filter((c) => c.status === "SKIPPED");
  assert.deepEqual(skipped.map((c) => c.id).sort(), [...allowedSkips].sort());
  for (const c of skipped) assert.match(c.errorMessage ?? "", /not applicable on negotiated protocol 2025-11-25/);
  assert.ok(result.checks.some((c) => c.id === "wire-schema-valid" && c.status === "SUCCESS"), "wire-schema-valid ran");
  assert.equal(result.code, 0, result.output);
  const n = counts(result.checks);
  summary.push(`${label} ${scenario} @${version}: ${n.SUCCESS}/${n.FAILURE}/${n.WARNING}/${n.SKIPPED}`);
}

for (const [label, vars] of [
  ["default page size", {}],
  ["PAGE_SIZE=2", { PAGE_SIZE: "2" }],
]) {
  describe(`Skills extension scenarios (${label})`, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ vars });
    });
    after(async () => {
      await worker?.stop();
    });
    for (const version of ["2026-07-28", "2025-11-25"]) {
      for (const scenario of SKILLS_SCENARIOS) {
        test(`${scenario} at ${version}`, async () => {
          const result = await runScenario(worker.url, scenario, version, { force: true });
          assertAllSuccess(result, scenario, version, `[${label}]`);
          if (vars.PAGE_SIZE) {
            // The small page size really made the suite follow cursors.
            const pag = (id) => result.checks.find((c) => c.id === id);
            if (scenario === "sep-2640-skills-enumeration") {
              assert.ok(pag("sep-2640-skills-list-pagination")?.details?.pages >= 2, "skills/list paginated");
            }
            if (scenario === "sep-2640-skills-directory") {
              assert.match(
                pag("sep-2640-directory-read-pagination")?.details?.paginationDetail ?? "",
                /round-tripped/,
                "resources/directory/read paginated",
              );
            }
          }
        });
      }
    }
  });
}

/** An expected-failures file, with the reason of each entry. */
function readExpected(file = EXPECTED) {
  const doc = parseDocument(readFileSync(file, "utf8"));
  assert.deepEqual(doc.errors, []);
  const items = doc.get("server")?.items ?? [];
  return items.map((item) => ({ entry: String(item.value), reason: (item.comment ?? "").trim() }));
}

test("every expected failure names a check and a reason (tools, prompts or completions)", () => {
  const entries = readExpected();
  assert.ok(entries.length > 0);
  for (const { entry, reason } of entries) {
    const [scenario, check] = entry.split(":");
    assert.ok(CORE_SCENARIOS.includes(scenario), `${entry}: not a core scenario run here`);
    assert.ok(check, `${entry}: list single checks, not whole scenarios`);
    assert.match(reason, /^needs (tools|prompts|completions)\b/, `${entry}: the reason must say what it needs`);
  }
});

test("with the fallback on, every expected failure names a conformance fixture", () => {
  const entries = readExpected(EXPECTED_FALLBACK);
  assert.ok(entries.length > 0);
  for (const { entry, reason } of entries) {
    const [scenario, check] = entry.split(":");
    assert.ok(FALLBACK_SCENARIOS.includes(scenario), `${entry}: not a scenario run with the fallback`);
    assert.ok(check, `${entry}: list single checks, not whole scenarios`);
    assert.match(
      reason,
      /^needs the conformance fixture (tool|prompt) `test_[a-z_]+`/,
      `${entry}: the reason must name the fixture it needs`,
    );
  }
  // What the fallback is for no longer fails.
  const listed = entries.map((e) => e.entry).join("\n");
  assert.doesNotMatch(listed, /tools-list|prompts-list|caching:/);
});

/** Runs `scenarios` at 2026-07-28 on a Worker with `vars`, against `file`. */
function againstExpected(title, vars, scenarios, file) {
  describe(title, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ vars });
    });
    after(async () => {
      await worker?.stop();
    });
    for (const scenario of scenarios) {
      test(scenario, async () => {
        const expected = new Set(
          readExpected(file)
            .map((e) => e.entry)
            .filter((e) => e.startsWith(`${scenario}:`))
            .map((e) => e.slice(scenario.length + 1)),
        );
        const result = await runScenario(worker.url, scenario, "2026-07-28", { expectedFailures: file });
        assert.ok(result.checks?.length > 0, `${scenario}: no checks (exit ${result.code})\n${result.output}`);
        // Worst status per check id (server-stateless reports one id three times).
        const rank = { FAILURE: 3, WARNING: 2, SUCCESS: 1, SKIPPED: 0, INFO: 0 };
        const worst = new Map();
        for (const c of result.checks) {
          const prev = worst.get(c.id);
          if (!prev || rank[c.status] > rank[prev.status]) worst.set(c.id, c);
        }
        const failing = [...worst.values()].filter((c) => c.status === "FAILURE" || c.status === "WARNING");
        const unexpected = failing.filter((c) => !expected.has(c.id));
        assert.equal(describeBad(unexpected, () => true), "", `${scenario}: unexpected failures`);
        const stale = [...expected].filter((id) => !failing.some((c) => c.id === id));
        assert.deepEqual(stale, [], `${scenario}: listed as expected failures but not failing (stale)`);
        // The suite's own baseline comparison agrees.
        assert.equal(result.code, 0, result.output);
        const n = counts(result.checks);
        const tag = Object.keys(vars).length ? ` [${Object.entries(vars).map(([k, v]) => `${k}=${v}`).join(" ")}]` : "";
        summary.push(`${scenario} @2026-07-28${tag}: ${n.SUCCESS}/${n.FAILURE}/${n.WARNING}/${n.SKIPPED} (expected failures: ${expected.size})`);
      });
    }
  });
}

againstExpected("core scenarios at 2026-07-28 (against the expected failures)", {}, CORE_SCENARIOS, EXPECTED);
againstExpected(
  "scenarios that need tools or prompts, FALLBACK=tools,prompts (against expected-failures-fallback.yml)",
  { FALLBACK: "tools,prompts" },
  FALLBACK_SCENARIOS,
  EXPECTED_FALLBACK,
);
