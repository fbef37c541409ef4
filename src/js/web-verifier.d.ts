/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One file of a skill's manifest. */
export interface SkillResource {
  /** The file's URI: the skill's SKILL.md or a URI inside the skill root. */
  uri: string;
  /** `sha256:` followed by 64 lowercase hex characters. */
  digest: string;
  /** Length of the raw bytes. */
  size: number;
}

/** A SKILL.md frontmatter as JSON: `name` and `description`, and every other field the author wrote. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [field: string]: unknown;
}

/** A skill entry of `skills/list` or `skills/get`. Unknown fields are ignored. */
export interface SkillEntry {
  uri: string;
  frontmatter: SkillFrontmatter;
  resources: SkillResource[] | "dynamic";
  [field: string]: unknown;
}

/** A `text` content item of a `resources/read` result. */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  [field: string]: unknown;
}

/** A `blob` (base64) content item of a `resources/read` result. */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  [field: string]: unknown;
}

/** The `result` of a `resources/read` response. `resultType` may be absent (legacy servers). */
export interface ReadResourceResult {
  contents: Array<TextResourceContents | BlobResourceContents>;
  resultType?: string;
  [field: string]: unknown;
}

/** The `result` of a `skills/list` response. */
export interface ListSkillsResult {
  skills: SkillEntry[];
  nextCursor?: string;
  resultType?: string;
  [field: string]: unknown;
}

/** The `result` of a `skills/get` response. */
export interface GetSkillResult {
  skill: SkillEntry;
  resultType?: string;
  [field: string]: unknown;
}

/** Content as the caller has it: text (verified over its UTF-8 bytes) or raw bytes. */
export type FileContent = string | Uint8Array;

/** Options of the verifier functions. */
export interface VerifyOptions {
  /** Accept content of a `"dynamic"` skill, which cannot be verified (default false: refused with `dynamic-not-allowed`). */
  allowDynamic?: boolean;
}

/** Proof that content matched its manifest item. */
export interface FileReceipt {
  uri: string;
  size: number;
  digest: string;
  /** false only for a dynamic skill accepted with `allowDynamic`. */
  verified: boolean;
}

/** Verified content of a file. */
export interface VerifiedContent extends FileReceipt {
  /** The raw bytes (the UTF-8 encoding for text). */
  bytes: Uint8Array;
  /** The text, when the content came as text. */
  text?: string;
  mimeType?: string;
}

/** The content item of a `resources/read` result, checked up to its digest (`readResultContent`). */
export interface ReadResultContent {
  /** The raw bytes (the UTF-8 encoding for text). */
  bytes: Uint8Array;
  /** The text, when the content item is `text`. */
  text?: string;
  mimeType?: string;
}

/** A verified SKILL.md. */
export interface VerifiedSkillMd extends FileReceipt {
  /** The whole file. */
  text: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** The frontmatter read from the file (equal in content to the entry's). */
  frontmatter: SkillFrontmatter;
  mimeType?: string;
}

/** File count and total size of a skill, from its entry alone. */
export type LimitReport =
  | { dynamic: false; resourceCount: number; totalSize: number }
  | { dynamic: true };

/** The stable codes of `SkillsEdgeError`. */
export type ErrorCode =
  | "invalid-entry"
  | "limit-exceeded"
  | "not-in-manifest"
  | "size-mismatch"
  | "digest-mismatch"
  | "frontmatter-mismatch"
  | "frontmatter-invalid"
  | "invalid-read-result"
  | "escapes-root"
  | "invalid-reference"
  | "dynamic-not-allowed"
  | "no-acting-window"
  | "not-approved"
  | "unknown-server"
  | "unknown-skill"
  | "invalid-argument"
  | "connection-failed"
  | "http-status"
  | "protocol-error"
  | "server-error"
  | "timeout"
  | "aborted"
  | "archive-invalid"
  | "archive-unsafe"
  | "unknown-schema"
  | "signature-invalid"
  | "signer-untrusted"
  | "signer-changed"
  | "catalog-invalid"
  | "pack-invalid";

/** Every failure of this package is thrown as an `Error` with these properties. */
export interface SkillsEdgeError extends Error {
  name: "SkillsEdgeError";
  code: ErrorCode;
  /** The URI concerned. */
  uri?: string;
  /** What the entry or the rule says (a size in decimal, a digest, a frontmatter value as JSON, a limit). */
  expected?: string;
  /** What was found instead. */
  actual?: string;
  /** For frontmatter errors, the path of the first differing field (`description`, `metadata.version`). */
  field?: string;
  /** For `frontmatter-mismatch`, every differing field in the order found (the first is `field`), when there is one. */
  fields?: string[];
  /** For `catalog-invalid`: every finding, errors and warnings, in path order. */
  diagnostics?: CatalogDiagnostic[];
}

/** A finding of the catalog compiler. */
export interface CatalogDiagnostic {
  severity: "error" | "warning";
  /** The stable rule id, e.g. `name-matches-directory`. */
  rule: string;
  /** Relative to the skills folder ("" for the folder itself). */
  path: string;
  line?: number;
  message: string;
  fix: string;
  /** The whole finding as the native build prints it, the folder name in front of the path. */
  rendered: string;
}

/** An Ed25519 public key as a JSON Web Key (RFC 8037): `kid`, when given, is ignored (a key's id is its RFC 7638 thumbprint). */
export interface PublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  kid?: string;
}

/** The signer policy of `SkillHost` and `SkillsClient` (none by default: a signature is checked when a skill has one and reported, nothing is required). */
export interface SignerOptions {
  /** The trust list: public keys (JWK objects or their JSON text). With any, every skill must be signed by one of them (`signer-untrusted`). A JWK holding a secret (`d`) is refused. `SkillsClient` (and `verifyWellKnown`) also take PEM text, an OpenSSF Model Signing P-256 public key (`oms.pub`): a skill's `skill.oms.sig` must then verify with one, or the skill carry a DSSE signature by a trusted JWK (docs/signing.md). `SkillHost` refuses PEM (it checks DSSE signers only), as does `skills-edge/verifier`. */
  trust?: Array<PublicJwk | string>;
  /** Pin each origin to the first signer (key and catalog identity) seen from it, and (`SkillsClient`) to the first OMS key of `trust` that verified its `skill.oms.sig`; later skills signed otherwise, or unsigned, are refused (`signer-changed`) until `acceptSignerChange`. Default false. */
  trustOnFirstUse?: boolean;
  /** Pins exported before (`exportPins()`), enforced even without `trustOnFirstUse`. */
  pins?: string | PinsExport;
}

/** Options of `SkillHost`. */
export interface SkillHostOptions extends SignerOptions {
  /** Load skills with `"dynamic"` resources (frontmatter verified, files not; 16 MiB retrieved at most). Default false. */
  allowDynamic?: boolean;
  /** Refuse to load a skill without a current approval (`not-approved`). Default false. */
  requireApproval?: boolean;
  /** Load a nested skill (one inside another registered skill of the same server) without
   * its own approval. Default false: a nested skill needs its own, explicit approval, which
   * the enclosing skill's does not replace (`not-approved` until then). */
  nestedWithoutApproval?: boolean;
}

/** The verified signer of a skill whose signature holds. */
export interface SignerInfo {
  /** The key's RFC 7638 thumbprint. */
  keyId: string;
  /** The catalog identity the signed statement gives. */
  catalog: string;
  /** How the policy anchored the key: in the trust list, pinned before, pinned by this skill, or only announced by the server (the default policy). */
  trust: "trusted" | "pinned" | "first-use" | "announced";
}

/** Persisted pins, as `exportPins()` writes them: each origin's DSSE signer and OpenSSF Model Signing key. Version 1 (no `omsPins`) is still read. */
export interface PinsExport {
  format: "skills-edge/pins";
  version: 1 | 2;
  pins: Array<{ origin: string; keyId: string; catalog: string; key: PublicJwk }>;
  /** OMS key pins (version 2): `hint` is the SHA-256 (hex) of `key`, the PEM public key, as `model_signing` names a key in a bundle. `SkillsClient` and `skills-edge verify` enforce them; the main module's `SkillHost` keeps them for export (it checks DSSE signers only); `skills-edge/verifier` refuses pins holding any. */
  omsPins?: Array<{ origin: string; hint: string; key: string }>;
}

/** A registered skill. */
export interface SkillSummary {
  /** The host-assigned label of its server. */
  serverLabel: string;
  uri: string;
  name: string;
  description: string;
  /** Unique among all registered skills: `name`, `name (prefix)`, or `label:name`. */
  displayName: string;
  dynamic: boolean;
  /** Its revision (see `skillRevision`); absent for a dynamic skill. */
  revision?: string;
  /** A current approval covers its entry. */
  approved: boolean;
  /** An acting window is open. */
  active: boolean;
  /** The verified signer of its entry; absent: unsigned. */
  signer?: SignerInfo;
}

/** A skill's identity: both halves, always. */
export interface SkillRef {
  serverLabel: string;
  uri: string;
}

/** What registering an entry did. */
export interface RegisterOutcome {
  uri: string;
  added: boolean;
  /** The `{uri, digest}` set differs from the previously registered entry. */
  changed: boolean;
  /** A stored approval no longer matched and was revoked. */
  approvalRevoked: boolean;
}

/** What registering a listing did. */
export interface ListingOutcome {
  registered: RegisterOutcome[];
  /** Invalid entries, not registered. */
  rejected: Array<{ index: number; error: SkillsEdgeError }>;
}

/** What to fetch next, from the skill's own server. */
export interface PlannedRead {
  uri: string;
  /** Absent for a dynamic skill. */
  digest?: string;
  /** Absent for a dynamic skill. */
  size?: number;
}

/** A loaded skill: its verified SKILL.md, tagged with its origin. */
export interface LoadedSkill extends VerifiedSkillMd {
  serverLabel: string;
  displayName: string;
}

/** A verified supporting file, tagged with its origin. */
export interface ReadFile extends VerifiedContent {
  serverLabel: string;
  skillUri: string;
}

/** Persisted approvals, as `exportApprovals()` writes them. */
export interface ApprovalsExport {
  format: "skills-edge/approvals";
  version: 1;
  approvals: Array<{ server: string; uri: string; fingerprint: string }>;
}

/** What a verified envelope signs (`verifyEnvelope`). */
export interface SignedStatement {
  /** The id (RFC 7638 thumbprint) of the key the signature verified under. */
  keyId: string;
  /** The skill's URI (its entry's `uri`). */
  skill: string;
  /** The skill's revision, as its entry's `_meta` publishes it. */
  revision: string;
  /** The catalog identity the publisher chose (by default the key's id). */
  catalog: string;
  /** Every signed file: its URI and the hex SHA-256 of its bytes. */
  subjects: Array<{ name: string; sha256: string }>;
}
