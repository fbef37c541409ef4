// The skills inspector page: connect to a server, list its skills, verify every file with
// SkillsClient.verify() (the same run as `skills-edge verify`, in the page's WebAssembly), and
// show each file's status and, for a refused one, why: the code, the expected and actual size
// or digest, the differing frontmatter fields; and each skill's signer (the key, the catalog
// identity, and whether the key is the trusted one given or only the one the server announces).
//
// No framework: the page is plain HTML that reads without styles; this module only fills in
// text. `?url=…&era=…&trust=…&run` prefills the form and starts at once (a link to a report).
import { SkillsClient } from "skills-edge/client";

const $ = (id) => document.getElementById(id);
const form = $("connect");
const statusLine = $("status");
const results = $("results");

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function say(text) {
  statusLine.textContent = text;
}

/** `Name: value` lines into [name, value] pairs (the client checks them). */
function parseHeaders(text) {
  const pairs = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "") continue;
    const at = line.indexOf(":");
    if (at <= 0) throw new Error(`header line ${i + 1} is not "Name: value"`);
    pairs.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
  }
  return pairs;
}

/**
 * The trusted key field: one public JWK, a JSON array of them, or a JWK Set (`{ keys: [...] }`);
 * or PEM public keys (OpenSSF Model Signing's `oms.pub`, P-256), each a `-----BEGIN PUBLIC
 * KEY-----` block; empty: no trust list. The client checks each key (a secret one is refused).
 */
function parseTrust(text) {
  if (text.trim() === "") return undefined;
  if (text.trimStart().startsWith("-----BEGIN ")) {
    return text.split(/(?=-----BEGIN )/).map((block) => block.trim()).filter((block) => block !== "");
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("the trusted key is neither JSON nor PEM: paste the public key file (a JWK, or an OpenSSF Model Signing oms.pub)");
  }
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === "object" && Array.isArray(value.keys)) return value.keys;
  return [value];
}

/** A signer in a few words: the catalog, how the key is anchored; the key id in full as a tooltip. */
function signerText(signer) {
  if (!signer) return "unsigned";
  const key = `key ${signer.keyId.slice(0, 8)}…`;
  const who = signer.catalog === signer.keyId ? key : `${signer.catalog} (${key})`;
  return `${who}, ${signer.trust}`;
}

function signerCell(signer) {
  return el("td", { class: "signer", title: signer?.keyId ?? "" }, signerText(signer));
}

function short(digest) {
  return typeof digest === "string" && digest.startsWith("sha256:") ? `${digest.slice(0, 19)}…` : (digest ?? "");
}

const slug = (uri) => `skill-${uri.replace(/[^A-Za-z0-9]+/g, "-")}`;

function statusCell(status) {
  return el("td", { class: `status ${status}` }, status);
}

/** The reason a check did not verify: code, sentence, and the values that differ. */
function reason(check) {
  if (!check.code) return "";
  const box = el("div", { class: "reason" });
  box.append(el("p", {}, el("strong", {}, check.code), `: ${check.why?.replace(`${check.code}: `, "") ?? ""}`));
  const facts = el("dl");
  const add = (term, value) => {
    if (value === undefined) return;
    facts.append(el("dt", {}, term), el("dd", {}, el("code", {}, value)));
  };
  if (check.code === "frontmatter-mismatch") {
    add(check.fields && check.fields.length > 1 ? "differing fields" : "differing field", (check.fields ?? [check.field]).join(", "));
    add("in the entry", check.expected ?? "(absent)");
    add("in SKILL.md", check.actual ?? "(absent)");
  } else if (check.code === "size-mismatch") {
    add("expected size", check.expected && `${check.expected} bytes`);
    add("actual size", check.actual && `${check.actual} bytes`);
  } else if (check.code === "digest-mismatch") {
    add("expected digest", check.expected);
    add("actual digest", check.actual);
  } else {
    add("expected", check.expected);
    add("actual", check.actual);
  }
  if (facts.childElementCount > 0) box.append(facts);
  return box;
}

function skillRow(s) {
  return el(
    "tr",
    { id: `row-${slug(s.uri)}` },
    el("th", { scope: "row" }, el("a", { href: `#${slug(s.uri)}` }, s.name), el("br"), el("span", { class: "uri" }, s.uri)),
    el("td", {}, s.description),
    el("td", { class: "num" }, s.files),
    el("td", { class: "num" }, s.bytes),
    el("td", {}, el("code", { title: s.revision ?? "" }, s.revision ? short(s.revision) : "dynamic")),
    signerCell(s.signer),
    statusCell("pending"),
  );
}

function details(r) {
  const section = el("section", { id: slug(r.skill), class: `skill ${r.status}`, "aria-labelledby": `${slug(r.skill)}-h` });
  section.append(el("h3", { id: `${slug(r.skill)}-h` }, `${r.name ?? r.skill}: ${r.status}`));
  section.append(el("p", { class: "uri" }, r.skill));
  section.append(
    el(
      "p",
      { class: "signer" },
      r.signer
        ? `Signed for the catalog ${r.signer.catalog} by the key ${r.signer.keyId} (${r.signer.trust}).`
        : r.code === "signature-invalid" || r.code === "signer-untrusted" || r.code === "signer-changed"
          ? "The signature was refused (see below)."
          : "Unsigned.",
    ),
  );
  if (r.refreshed) section.append(el("p", {}, "The entry was fetched again with skills/get after a verification failure (the spec's recovery), then verified again."));
  if (r.status === "changed") section.append(el("p", {}, `The entry changed while it was checked, each time the check started again: ${r.why ?? ""}`));
  if (r.status === "downgraded") section.append(el("p", {}, `The listing gave this skill a manifest, then the server served it as "dynamic": nothing it serves can be verified. ${r.why ?? ""}`));
  const table = el("table", {}, el("caption", {}, `Files of ${r.name ?? r.skill}`));
  table.append(
    el("thead", {}, el("tr", {}, ...["File", "Size", "Digest", "Status", "Reason"].map((h) => el("th", { scope: "col" }, h)))),
  );
  const body = el("tbody");
  for (const c of r.checks) {
    body.append(
      el(
        "tr",
        { class: c.status },
        el("th", { scope: "row" }, el("span", { class: "uri" }, c.uri)),
        el("td", { class: "num" }, c.size ?? ""),
        el("td", {}, el("code", { title: c.digest ?? "" }, short(c.digest))),
        statusCell(c.status),
        el("td", {}, reason(c)),
      ),
    );
  }
  table.append(body);
  section.append(table);
  return section;
}

let running = false;

async function run() {
  if (running) return;
  running = true;
  const button = $("go");
  button.disabled = true;
  results.setAttribute("aria-busy", "true");
  const url = $("url").value.trim();
  const era = $("era").value;
  let client;
  try {
    const headers = parseHeaders($("headers").value);
    const trust = parseTrust($("trust").value);
    // The token field has no name and is never read from or written to the address: the
    // token lives in this page's memory only.
    const token = $("token").value.trim();
    say(`Connecting to ${url}…`);
    client = await SkillsClient.connect(url, { era, headers, ...(trust && { trust }), ...(token && { token }) });
    const info = client.server;
    const who = info.serverInfo ? `${info.serverInfo.name} ${info.serverInfo.version ?? ""}`.trim() : "a server";
    $("server").textContent = `${url}: ${who}, protocol ${info.protocolVersion}${info.skills ? "" : " (it does not declare the skills extension)"}.`;
    say("Listing skills…");
    const listing = await client.list();
    const tbody = $("skills").tBodies[0];
    tbody.replaceChildren(...listing.skills.map(skillRow));
    $("details").replaceChildren();
    $("summary").textContent = "";
    results.hidden = false;
    say(`Verifying ${listing.skills.length} skills…`);
    const report = await client.verify();
    for (const r of report.skills) {
      let row = $(`row-${slug(r.skill)}`);
      if (!row) {
        row = skillRow({ uri: r.skill, name: r.name ?? r.skill, description: r.description ?? "", files: r.files, bytes: r.bytes, revision: r.revision });
        tbody.append(row);
      }
      row.lastElementChild.previousElementSibling.replaceWith(signerCell(r.signer));
      row.lastElementChild.replaceWith(statusCell(r.status));
      $("details").append(details(r));
    }
    $("summary").textContent = report.summary;
    // The run's verdict is its exit code: a dynamic or downgraded skill is not verified (the
    // page accepts no dynamic skills, as SkillHost by default).
    const failed = report.skills.filter((s) => s.status !== "verified").length;
    say(report.exitCode === 0 && failed === 0 ? `Done: all ${report.skills.length} skills verified.` : `Done: ${failed} of ${report.skills.length} skills did not verify.`);
    $("results-title").focus();
  } catch (e) {
    say(`Failed: ${e.message}${e.code ? ` [${e.code}]` : ""}`);
  } finally {
    client?.close();
    results.removeAttribute("aria-busy");
    button.disabled = false;
    running = false;
  }
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  run();
});

const params = new URLSearchParams(location.search);
if (params.has("url")) $("url").value = params.get("url");
if (params.has("era")) $("era").value = params.get("era");
if (params.has("headers")) $("headers").value = params.get("headers");
if (params.has("trust")) $("trust").value = params.get("trust");
if (params.has("run") && params.has("url")) run();
