/**
 * One entry of a skills folder as a reader found it; `path` is relative to the folder and
 * `/`-separated. Files carry their bytes; directories are listed so empty ones are kept; the
 * other kinds report what a reader must not publish, so the compiler names them the same way
 * the native build does.
 */
export type SourceEntry =
  | { path: string; kind?: "file"; bytes: Uint8Array | string }
  | { path: string; kind: "directory" }
  | { path: string; kind: "symlink" }
  | { path: string; kind: "special" }
  | { path: string; kind: "unreadable"; what: "root" | "directory" | "entry" | "file"; error: string }
  | { path: string; kind: "bad-name"; name: Uint8Array }
  /** The folder itself (path "") is not a directory. */
  | { path: string; kind: "not-a-directory" };

/** Options of `compileCatalog`. */
export interface CompileOptions {
  /** How the folder is named in messages (default "skills"). */
  root?: string;
  /** Server instructions stored in the pack; default: generated from the catalog. */
  instructions?: string;
  /** Strict mode: frontmatter the official MCP TypeScript SDK 2.4 cannot read (`frontmatter-sdk-*`) is an error, not a warning (default false; `SKILLS_STRICT=1` for the build). */
  strict?: boolean;
  /** Leave each invalid skill out (its errors become warnings naming it, after a `skill-left-out` warning) and publish the rest (default false: a single error refuses the whole folder; `SKILLS_ON_INVALID=skip` for the build). */
  skipInvalid?: boolean;
  /** Leave every file larger than this many bytes out of the pack and return it in `assets`, for the Worker's Static Assets (`skills-edge pack --assets DIR --inline-max BYTES`); default: every byte in the pack, no `assets`. */
  inlineMax?: number;
  /** Sign every skill (`skills-edge pack --sign PATH`): the key file's path (named in messages) and its bytes as read, or why it could not be read. A key that cannot be used throws `catalog-invalid` with a `signing-key` diagnostic naming the file, never its contents. */
  signingKey?: { file: string; bytes: Uint8Array } | { file: string; error: string };
  /** The identity the signatures name (`--catalog-id`; 1 to 256 visible ASCII characters); default: the key's id. Needs `signingKey`. */
  catalogId?: string;
  /** Give every skill an OpenSSF Model Signing signature, `skill.oms.sig` (`skills-edge pack --oms-sign PATH`): the P-256 key file's (`oms.key`) path and its bytes as read, or why it could not be read. A key that cannot be used throws `catalog-invalid` with an `oms-signature` diagnostic naming the file, never its contents. */
  omsKey?: { file: string; bytes: Uint8Array } | { file: string; error: string };
}

/** The build options read as every build reads them (`buildOptions`). */
export interface BuildOptions {
  /** `SKILLS_STRICT=1`. */
  strict: boolean;
  /** `SKILLS_ON_INVALID=skip`. */
  skipInvalid: boolean;
  /** `--inline-max` when given, else the default of `skills-edge pack --assets` (8192). */
  inlineMax: number;
  /** `SKILLS_SIGNING_KEY`: the signing key file's path (never its contents). */
  signingKey?: string;
  /** `SKILLS_CATALOG_ID`. */
  catalogId?: string;
}

/** A file a pack leaves out (`CompiledCatalog.assets`). */
export interface CompiledAsset {
  /** Named by content: `<hex>` holds the file's bytes, `<hex>.json` its `resources/read` JSON string. */
  name: string;
  bytes: Uint8Array;
}

/** A compiled skills folder. */
export interface CompiledCatalog {
  /** The pack: load it with `new SkillsServer({ pack })`. */
  pack: Uint8Array;
  /** Every skill's entry, as `skills/list` serves it, in URI order. */
  skills: SkillEntry[];
  /** Number of served files and their total size. */
  files: number;
  bytes: number;
  /** The content snapshot id (changes with any served byte). */
  snapshot: number;
  /** Findings that do not stop publishing. */
  warnings: CatalogDiagnostic[];
  /** With `inlineMax`: the files left out of the pack, to write into the Worker's Static Assets folder. */
  assets?: CompiledAsset[];
  /** With `inlineMax`: the Workers free plan's limits the Worker would exceed (pack size, number of assets), as printed. */
  uploadWarnings?: string[];
  /** With `signingKey`: who signed every skill (the key's id and the catalog identity). */
  signer?: { keyId: string; catalog: string };
  /**
   * With access rules (`skills-edge.toml`): who may see each skill, one line per skill as
   * `skills-edge check` prints it (`audience: PATH: public` or `audience: PATH: scopes S…`).
   */
  audience?: string;
  /** With `omsKey`: the hint of the key every `skill.oms.sig` is signed with (the SHA-256, hex, of its public key's PEM). */
  omsHint?: string;
}

/** One file `skills-edge keygen` writes (`SigningKeyFiles`). */
export interface SigningKeyFile {
  /** The `--out` folder as given, then the file name. */
  path: string;
  /** Its text: a JWK and a newline. */
  text: string;
  /** What the command prints when the file already exists. */
  exists: string;
}

/** What `skills-edge keygen --out DIR` writes and prints (`signingKeyFiles`). */
export interface SigningKeyFiles {
  /** The key's id (RFC 7638 thumbprint), printed on stdout. */
  keyId: string;
  /** `signing.key`: the secret JWK (write it with mode 0600). */
  secret: SigningKeyFile;
  /** `signing.pub`: the public JWK. */
  public: SigningKeyFile;
  /** The line printed once both are written. */
  written: string;
}

/** What a pack holds, read without serving it. */
export interface PackSummary {
  /** The pack's format version: 7, the only one (see docs/pack-format.md). */
  version: number;
  snapshot: number;
  skills: SkillEntry[];
  files: number;
  bytes: number;
}

/** Options of `SkillsServer`. */
export interface SkillsServerOptions {
  /** Items per page of `skills/list`, `resources/list` and `resources/directory/read` (1-1000, default 50). */
  pageSize?: number;
  /** `ttlMs` of cacheable results (default 300000). */
  ttlMs?: number;
  /** `cacheScope` of cacheable results (default "public"). */
  cacheScope?: "public" | "private";
  /** Server instructions; default: the pack's (generated from the catalog); "" sends none. */
  instructions?: string;
  /** Also serve the skills as tools and/or prompts, for clients without the Skills extension: `"tools"`, `"prompts"`, `"tools,prompts"`, or `"none"` (the default). Not part of the extension. */
  fallback?: string;
  /** A pack made by `compileCatalog` or `skills-edge pack`; default: the catalog embedded in this package. */
  pack?: Uint8Array | ArrayBuffer;
  /** The identity sent in `serverInfo` and in every 2026-07-28 result's `_meta` (default: skills-edge and this package's version), for a server that answers other methods too. */
  serverInfo?: { name: string; version: string };
  /** `fetch` only: the browser origins allowed, as the Worker's `ALLOWED_ORIGINS` (default: local pages on any port). */
  allowedOrigins?: string;
  /** `fetch` only: the `Host` values accepted, as the Worker's `ALLOWED_HOSTS` (default: loopback names on any port). */
  allowedHosts?: string;
  /** The largest message, in bytes, as the Worker's `MAX_BODY_BYTES` (default 1048576, at most 16777216): `fetch` reads no more of a body, and `handleHttp` answers a longer message 413. */
  maxBodyBytes?: number;
  /** `fetch` only: `"on"` (the default) serves the catalog under `/.well-known/agent-skills/` too, as the Worker's `MIRROR`. */
  mirror?: "on" | "off";
}

/** Anything with the `get` of the Fetch API's `Headers` (which is one). */
export interface HeaderGetter {
  get(name: string): string | null;
}

/** The request `SkillsServer.fetch` answers: the Fetch API's `Request` is one. */
export interface FetchRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderGetter;
  /** A `ReadableStream` of bytes, or `null` when the request has no body. */
  readonly body: unknown;
}

/** What `SkillsServer.fetch` answers where the TypeScript `lib` declares no Fetch API. */
export interface FetchResponse {
  readonly status: number;
  readonly headers: HeaderGetter;
  text(): Promise<string>;
}

/** The platform's `Response` (the Fetch API's, where the `lib` declares it; else `FetchResponse`). */
export type PlatformResponse = typeof globalThis extends { Response: new (...args: never[]) => infer R } ? R : FetchResponse;

/** The caller's own answer to a message in `SkillsServer.fetch`: an `HttpReply`, or `undefined` to leave it to the server. */
export type OwnMethods = (message: string) => HttpReply | undefined;

/**
 * The caller's scopes, as the embedding host verified them (`SkillsServer` authenticates
 * nobody): an array of OAuth scope strings, or one space-separated string (a token's `scope`
 * claim). The caller sees the public skills and the private ones whose `[[access]]` rules name
 * one of them. Absent: an anonymous caller, the public skills only.
 */
export type Scopes = readonly string[] | string;

/** The options of one `handle`, `handleText` or `handleHttp` call. */
export interface CallOptions {
  /** The caller's scopes (default: none, the public skills only). */
  scopes?: Scopes | null;
}

/**
 * A file's content from `SkillsServer.readFile`: `text` for a text file (what `resources/read`
 * sends as `text`), `bytes` for any other (sent as a base64 `blob`); for a file kept outside the
 * pack (`--assets`), the name of the asset holding its raw bytes, their length, and whether it
 * is served as text.
 */
export type ServedFile =
  | { uri: string; mimeType: string; text: string }
  | { uri: string; mimeType: string; bytes: Uint8Array }
  | { uri: string; mimeType: string; asset: string; size: number; isText: boolean };

/** What `SkillsServer.catalogInfo()` tells an adapter about the catalog and the settings it is served with. */
export interface CatalogInfo {
  /** Some files are kept outside the pack as assets (a pack made with `--assets`). */
  hasAssets: boolean;
  /** Some skills are private (`[[access]]` rules): answers depend on the caller's scopes. */
  hasPrivateSkills: boolean;
  /** Items per page of `skills/list`, `resources/list` and `resources/directory/read`, as configured; a list longer than 64 such pages is served in pages of ⌈items / 64⌉ (at most 1,000), so every client that stops at 64 pages lists it all. */
  pageSize: number;
  /** `ttlMs` of cacheable results. */
  ttlMs: number;
  /** `cacheScope` of cacheable results for an anonymous caller (a caller with scopes always gets `private`). */
  cacheScope: "public" | "private";
  /** The key id of the key that signed every skill (`skills-edge pack --sign`); absent when the catalog is not signed. */
  signerKeyId?: string;
}

/** The options of one `SkillsServer.fetch`. */
export interface FetchOptions {
  /** The caller's own answer to each message that passed the HTTP rules. */
  own?: OwnMethods | null;
  /** The caller's scopes (default: none, the public skills only). */
  scopes?: Scopes | null;
}

/** The MCP request headers `handleHttp` reads, by lowercase name (absent: `undefined` or `null`). */
export interface McpHeaders {
  "mcp-protocol-version"?: string | null;
  "mcp-method"?: string | null;
  "mcp-name"?: string | null;
}

/** The answer to a Streamable HTTP POST: the status to send and, unless it is 202, the JSON body. */
export interface HttpReply {
  status: number;
  body?: string;
}

/** A JSON-RPC request or notification. */
export interface JsonRpcMessage {
  jsonrpc: "2.0";
  id?: string | number;
  method: string;
  params?: { [key: string]: unknown };
}

/** A successful JSON-RPC response. */
export interface JsonRpcResultResponse {
  jsonrpc: "2.0";
  id: string | number;
  result: { [key: string]: JsonValue };
}

/** A JSON-RPC error response (`id` is absent when the request's id could not be read). */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id?: string | number;
  error: { code: number; message: string; data?: JsonValue };
}

/** A JSON-RPC response. */
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

// ---------------------------------------------------------------------------------------------
// The skills client (SkillsClientCore; the `skills-edge/client` module's SkillsClient)
// ---------------------------------------------------------------------------------------------

/** Options of `new SkillsClientCore`. */
export interface SkillsClientCoreOptions extends SignerOptions {
  /** The host's name for the server, its identity wherever its skills and approvals are kept
   * (1–2048 bytes, no control characters); default derived from `origin` (its WHATWG origin
   * form); one of the two is required. */
  label?: string;
  /** The name the server's signer is pinned under (`SkillsClient.connect` gives its URL's origin); default the label. */
  origin?: string;
  /** The most result bytes (as JSON text) one listing, directory or walk may read over all
   * its pages; past it the listing fails with `protocol-error`. Default 268435456 (256 MiB). */
  listingBudget?: number;
  allowDynamic?: boolean;
  requireApproval?: boolean;
  nestedWithoutApproval?: boolean;
  /** `clientInfo.name`; default `skills-edge`. */
  clientName?: string;
  /** `clientInfo.version`; default this package's version. */
  clientVersion?: string;
}

/** One response as a Streamable HTTP io object hands it to the core. */
export interface IoResponse {
  status: number;
  contentType: string | null;
  sessionId: string | null;
  /** `WWW-Authenticate`: the challenge of a 401, which the core explains from the server's metadata. */
  wwwAuthenticate?: string | null;
  /** The next chunk of the body, or `undefined` at its end. */
  read(): Promise<Uint8Array | undefined>;
  /** The core is done with the body (an event stream may stay open). */
  cancel?(): void;
}

/** The transport of one operation: `post` (Streamable HTTP) or `request` (an SDK client). */
export interface SkillsClientIo {
  /** The endpoint's URL: where the metadata explaining a 401 is looked up. */
  url?: string;
  /** Whether the requests carry an `Authorization` header (a 401 says so; never the token). */
  authorized?: boolean;
  post?(body: string, headers: [string, string][]): Promise<IoResponse>;
  /** GETs a well-known index or artifact (redirects followed); the same response shape. */
  get?(url: string): Promise<IoResponse>;
  request?(method: string, params: { [key: string]: JsonValue }): Promise<{ [key: string]: JsonValue }>;
  /**
   * The SHA-256 of fetched content in wire form (`sha256:` + 64 lowercase hex), from a platform
   * digest; anything else (undefined, a rejection) leaves the hashing to WebAssembly. The
   * verifier still checks the listing and the size and compares the digest with the entry's.
   */
  digest?(bytes: Uint8Array): Promise<string | undefined> | string | undefined;
  /** The least content length, in bytes, for which `digest` is called (default 0). */
  digestThreshold?: number;
}

/** What a connected server says about itself. */
export interface ServerFacts {
  /** `2026-07-28`, or the 2025-era revision `initialize` settled on. */
  protocolVersion: string;
  capabilities: { [key: string]: JsonValue };
  serverInfo?: { name: string; version: string; [key: string]: JsonValue };
  instructions?: string;
  /** It declares the `io.modelcontextprotocol/skills` extension. */
  skills: boolean;
  /** It declares `directoryRead`. */
  directoryRead: boolean;
}

/** What an SDK client negotiated, for `SkillsClientCore.attach`. */
export interface AttachedFacts {
  protocolVersion: string;
  capabilities?: { [key: string]: JsonValue };
  serverInfo?: { [key: string]: JsonValue };
  instructions?: string;
}

/** A skill as a listing or `skills/get` shows it. */
export interface ListedSkill extends SkillSummary {
  /** Files in its entry (0 when dynamic). */
  files: number;
  /** Their declared total size. */
  bytes: number;
  /** The entry as the host reads it. */
  entry: SkillEntry;
}

/** Every page of `skills/list`, registered. */
export interface SkillListing {
  skills: ListedSkill[];
  /** Invalid entries (never registered): their index in the listing and why. */
  rejected: Array<{ index: number; error: SkillsEdgeError }>;
  ttlMs: number;
  cacheScope: "public" | "private";
  pages: number;
}

/** A `skills/get` result, registered. */
export interface FetchedSkill {
  skill: ListedSkill;
  changed: boolean;
  approvalRevoked: boolean;
  ttlMs: number;
  cacheScope: "public" | "private";
}

/** A skill loaded by the client. */
export interface ClientLoadedSkill extends LoadedSkill {
  /** The entry was refreshed with `skills/get` after a verification failure. */
  refreshed: boolean;
  /** Fetching the entry revoked an approval (its files changed). */
  approvalRevoked: boolean;
}

/** A supporting file read by the client. */
export interface ClientReadFile extends ReadFile {
  refreshed: boolean;
  approvalRevoked: boolean;
}

/** One child of a directory. */
export interface DirectoryChild {
  uri: string;
  name?: string;
  mimeType?: string;
  size?: number;
  directory: boolean;
  /** For a file inside a registered skill: whether its entry lists it. */
  listed?: boolean;
}

/** Every page of `resources/directory/read`. */
export interface DirectoryListing {
  uri: string;
  resources: DirectoryChild[];
  ttlMs: number;
  cacheScope: "public" | "private";
  pages: number;
}

/** One result of `SkillsClient.search` (the server's `search_skills` tool). */
export interface SearchResult {
  /** The `skill://` URI of the skill's SKILL.md: load it to read and verify the skill. */
  uri: string;
  name: string;
  description: string;
  /** Higher is better. */
  score: number;
}

/** One check of `skills-edge verify` (a file, an unlisted file, a directory). */
export interface VerifyCheck {
  uri: string;
  /** `verified` only when size and digest match the entry held; `dynamic` for a file of a
   * `"dynamic"` skill; `changed` when verified against an entry the server then replaced. */
  status: "verified" | "dynamic" | "changed" | "failed" | "error" | "unlisted" | "skipped";
  size?: number;
  digest?: string;
  code?: ErrorCode;
  expected?: string;
  actual?: string;
  field?: string;
  why?: string;
}

/** One skill of `skills-edge verify --json`. */
export interface VerifiedSkill {
  skill: string;
  name?: string;
  description?: string;
  revision?: string;
  files: number;
  bytes: number;
  /** `changed`: the entry kept changing during the skill's check; `downgraded`: listed with a
   * manifest, then served as `"dynamic"` (always a failure). */
  status: "verified" | "dynamic" | "downgraded" | "changed" | "failed" | "error";
  code?: ErrorCode;
  why?: string;
  refreshed: boolean;
  /** The verified signer; absent: unsigned (or its signature was not checked). */
  signer?: SignerInfo;
  checks: VerifyCheck[];
}

/** The `verify` run. */
export interface VerifyReport {
  skills: VerifiedSkill[];
  /** From the statuses alone: 0 every skill `verified` (or `dynamic`, with `allowDynamic`),
   * 1 one `failed`, `changed` or `downgraded`, or `dynamic` without `allowDynamic`, 2 the
   * server could not be reached or listed, or a skill is `error`. */
  exitCode: 0 | 1 | 2;
  /** The table, escaped for a terminal (control and bidirectional characters as `\u{1b}`). */
  table: string;
  /** The summary line, escaped the same way. */
  summary: string;
  /** What stopped the run before any skill was checked. */
  error?: SkillsEdgeError;
  protocolVersion?: string;
  /** `verifyWellKnown` with `trustOnFirstUse` or `pins`: the pins after the run (JSON text), to persist. */
  pins?: string;
}

/** The arguments of `skills-edge verify`, read. */
export interface VerifyArgs {
  url: string;
  era: "auto" | "2026-07-28" | "2025-11-25";
  headers: [string, string][];
  skill?: string;
  json: boolean;
  timeoutMs: number;
  /** `url` is a well-known index (`…/.well-known/agent-skills/index.json`, or `--well-known`). */
  wellKnown: boolean;
  /** `--cross-check`: the MCP server, then the same origin's index, compared. */
  crossCheck: boolean;
  /** `--trust FILE`: public key files, the trust list. */
  trust: string[];
  /** `--pins FILE`: the pins file (read if it exists, written after the run). */
  pins?: string;
  /** `--allow-dynamic`: a dynamic skill does not fail the run (a downgraded one still does). */
  allowDynamic: boolean;
}

/** The texts of the `--trust` and `--pins` files, for `runVerifyCommand`. */
export interface VerifyFiles {
  /** Each `--trust` file's text, in the order given. */
  trust?: string[];
  /** The `--pins` file's text; absent when it does not exist yet. */
  pins?: string;
}

/**
 * The I/O of `runPublishCommand` (`skills-edge publish` and `gc`), supplied by the package's
 * command from Node. A function that cannot do its work returns the system's reason as a
 * string (Rust's words: `No such file or directory (os error 2)`); a function that throws
 * stops the run, and `runPublishCommand` rethrows it.
 */
export interface PublishIo {
  /** The environment's variables (e.g. `process.env`): `SKILLS_SIGNING_KEY`, `SKILLS_EDGE_WRANGLER`, … */
  env: Record<string, string | undefined>;
  /** A folder of this run's own for the files handed to wrangler (made, then removed, by the run). */
  scratch: string;
  /** The skills folder, read as `compileCatalog` takes it (no link followed). */
  readFolder(dir: string): SourceEntry[];
  /** The file's bytes, or why it cannot be read. */
  readFile(path: string): Uint8Array | string;
  /** Writes the file (replacing it); undefined, or why it cannot be written. */
  writeFile(path: string, bytes: Uint8Array): string | undefined;
  /** Removes the file if it is there. */
  removeFile(path: string): void;
  /** Makes the folder and its parents; undefined, or why it cannot be made. */
  makeDir(path: string): string | undefined;
  /** Removes the folder and what it holds, if it is there. */
  removeDir(path: string): void;
  /** Runs the program with `WRANGLER_SEND_METRICS=false` added to the environment and waits: whether it exited 0 and its standard output then standard error, or why it could not start. */
  run(program: string, args: string[]): { ok: boolean; text: string } | string;
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
}

/** What the npm package's `skills-edge` command line asks for (`parseCommand`). */
export type ParsedCommand =
  | { command: "check"; dir: string; strict: boolean; skipInvalid: boolean; sign?: string; catalogId?: string; omsSign?: string }
  | {
      command: "pack";
      dir: string;
      output?: string;
      instructions?: string;
      strict: boolean;
      skipInvalid: boolean;
      sign?: string;
      catalogId?: string;
      omsSign?: string;
    }
  | {
      command: "worker";
      dir: string;
      out: string;
      name: string;
      hosts: string[];
      inlineMax: number;
      force: boolean;
      strict: boolean;
      skipInvalid: boolean;
      sign?: string;
      catalogId?: string;
      omsSign?: string;
    }
  | ({ command: "verify" } & VerifyArgs)
  | { command: "keygen"; out: string }
  | { command: "version" }
  | { command: "help"; usage: string };

/** The time allowed for each request, in milliseconds (`timeoutBounds`): the default and the largest accepted (the smallest is 1). */
export interface TimeoutBounds {
  defaultMs: number;
  maxMs: number;
}

/** What `skills-edge verify` prints and returns. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
  exitCode: 0 | 1 | 2;
  /** With `--pins`: the pins to write back to its file. */
  pins?: string;
}
