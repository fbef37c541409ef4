// `skills-edge/client`: SkillsClient, a host's client of one skills server, verified by the
// package's WebAssembly SkillHost (no crypto.subtle needed; where the platform has node:crypto
// or crypto.subtle, large files are hashed with it and the verifier judges that digest).
import type {
  ApprovalsExport,
  PinsExport,
  SignerInfo,
  SignerOptions,
  ClientLoadedSkill,
  ClientReadFile,
  DirectoryListing,
  FetchedSkill,
  SearchResult,
  ServerFacts,
  SkillEntry,
  SkillListing,
  SkillSummary,
  VerifyReport,
} from "../node/skills_edge.js";

export type {
  PinsExport,
  PublicJwk,
  SignerInfo,
  SignerOptions,
  ClientLoadedSkill,
  ClientReadFile,
  DirectoryChild,
  DirectoryListing,
  FetchedSkill,
  ListedSkill,
  SearchResult,
  ServerFacts,
  SkillListing,
  VerifiedSkill,
  VerifyCheck,
  VerifyReport,
} from "../node/skills_edge.js";

/** An `AbortSignal` (the DOM's, Node's or a worker runtime's). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** A `fetch` (the runtime's own, or a wrapper of it). */
export type FetchLike = (input: string, init: never) => Promise<unknown>;

/** Options of each operation. */
export interface CallOptions {
  /** Aborts the operation's requests (rejects with `aborted`). */
  signal?: AbortSignalLike;
  /** The time allowed for each request, in milliseconds (rejects with `timeout`); default the client's. */
  timeoutMs?: number;
}

/** Options of `SkillsClient.connect` (the signer policy: `trust`, `trustOnFirstUse`, `pins`; the server's signer is pinned under the URL's origin). */
export interface ConnectOptions extends SignerOptions {
  /** `auto` (default: 2026-07-28, else 2025-11-25), `2026-07-28` or `2025-11-25`. */
  era?: "auto" | "2026-07-28" | "2025-11-25";
  /** Sent on every request (authorization); names must not be the transport's own. */
  headers?: Record<string, string> | [string, string][];
  /** A bearer token (RFC 6750 `b64token`), sent as `Authorization: Bearer …` on every request
   * to the URL's origin only (never to another origin, e.g. after a redirect). Not with an
   * `authorization` header. A 401 rejects with `http-status` naming the server's authorization
   * server(s) and `scopes_supported`, and whether a token was sent (never the token). */
  token?: string;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** The time allowed for each request, in milliseconds; default 30000. */
  timeoutMs?: number;
  /** Aborts connecting. */
  signal?: AbortSignalLike;
  /** The host's name for the server, its identity wherever its skills, approvals and cached
   * results are kept (1–2048 bytes, no control characters); default the URL's origin
   * (`new URL(url).origin`, as `skills-edge verify` and the inspector page label it). */
  label?: string;
  /** Load skills whose `resources` is `"dynamic"` (frontmatter verified, files cannot be). */
  allowDynamic?: boolean;
  /** Refuse to load a skill without a current approval (`not-approved`). Default false. */
  requireApproval?: boolean;
  /** Load a nested skill (one inside another registered skill of the same server) without
   * its own approval. Default false: a nested skill needs its own, explicit approval, which
   * the enclosing skill's does not replace (`not-approved` until then). */
  nestedWithoutApproval?: boolean;
  /** `clientInfo`; default `skills-edge` and this package's version. */
  clientInfo?: { name?: string; version?: string };
  /** The most result bytes (as JSON text) one listing, directory or walk may read over all
   * its pages (an integer from 1 to 2^53 - 1); past it the listing fails with
   * `protocol-error`. Default 268435456 (256 MiB). */
  listingBudget?: number;
}

/** Options of `SkillsClient.verifyWellKnown` (and the signer policy the index's signatures are checked with). */
export interface WellKnownOptions extends SignerOptions {
  /** Sent on every request; names must not be the transport's own. */
  headers?: Record<string, string> | [string, string][];
  /** A bearer token, as in `ConnectOptions` (sent to the index's origin only). */
  token?: string;
  /** The fetch to use; default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** The time allowed for each request, in milliseconds; default 30000. */
  timeoutMs?: number;
  /** Aborts the run. */
  signal?: AbortSignalLike;
  /** A dynamic skill (every skill of a v0.1.0 index) passes (exit code 0) only with this. */
  allowDynamic?: boolean;
}

/** Options of `SkillsClient.wrap`. */
export interface WrapOptions extends SignerOptions {
  timeoutMs?: number;
  /** What the server's signer is pinned under; default the label. */
  origin?: string;
  /** As in `ConnectOptions`. */
  listingBudget?: number;
  /** The host's name for the server; required unless `origin` is given, from which it is
   * derived (as `ConnectOptions.label` from the URL). */
  label?: string;
  allowDynamic?: boolean;
  requireApproval?: boolean;
  nestedWithoutApproval?: boolean;
}

/** What `SkillsClient.wrap` needs of an SDK client (v2 `Client` or v1 `Client`). */
export interface SdkClientLike {
  request(request: { method: string; params?: object }, schema: object, options?: object): Promise<unknown>;
  getNegotiatedProtocolVersion?(): string | undefined;
  getServerCapabilities?(): object | undefined;
  getServerVersion?(): object | undefined;
  getInstructions?(): string | undefined;
}

/** Options of `SkillsClient.search`. */
export interface SearchOptions extends CallOptions {
  /** Only skills carrying every one of these tags. */
  tags?: string[];
  /** The most results (the server's bounds: 1 to 50, default 10). */
  limit?: number;
}

/** A skill argument: its SKILL.md URI, or a listed or loaded skill. */
export type SkillArg = string | { uri: string };

export declare class SkillsClient {
  private constructor();
  /** Connects over Streamable HTTP with fetch (see `ConnectOptions`). */
  static connect(url: string, options?: ConnectOptions): Promise<SkillsClient>;
  /**
   * Reads and verifies a well-known skills source (an Agent Skills Discovery index): `url` is
   * the index (`…/.well-known/agent-skills/index.json`) or an origin. The same statuses, report
   * and exit codes as `skills-edge verify` and `verify()`.
   */
  static verifyWellKnown(url: string, options?: WellKnownOptions): Promise<VerifyReport>;
  /** Wraps an SDK client that is already connected. */
  static wrap(client: SdkClientLike, options?: WrapOptions): Promise<SkillsClient>;
  /** What the server says about itself. */
  readonly server: ServerFacts | undefined;
  /** Replaces the headers sent on every request (drops private cached results); the `token` of `connect` is kept. */
  setHeaders(headers: Record<string, string> | [string, string][]): void;
  list(options?: CallOptions): Promise<SkillListing>;
  get(uri: string, options?: CallOptions): Promise<FetchedSkill>;
  load(skill: SkillArg, options?: CallOptions): Promise<ClientLoadedSkill>;
  read(skill: SkillArg, reference: string, options?: CallOptions): Promise<ClientReadFile>;
  readDirectory(uri: string, options?: CallOptions): Promise<DirectoryListing>;
  /**
   * Searches through the server's `search_skills` tool: results best first, each a
   * `skill://` URI to `load` (and so verify). Rejects with `invalid-argument` when the server
   * does not offer the tool or refuses the arguments.
   */
  search(query: string, options?: SearchOptions): Promise<SearchResult[]>;
  verify(options?: CallOptions & { skill?: string }): Promise<VerifyReport>;
  skills(): SkillSummary[];
  entry(uri: string): SkillEntry | undefined;
  approve(uri: string): string;
  isApproved(uri: string): boolean;
  revoke(uri: string): boolean;
  isActive(uri: string): boolean;
  closeWindow(uri: string): boolean;
  exportApprovals(): string;
  importApprovals(approvals: string | ApprovalsExport): number;
  /** The verified signer of a registered skill; `undefined`: unsigned. */
  signer(uri: string): SignerInfo | undefined;
  /** The origin the server's signer is pinned under (the URL's origin, or the label). */
  readonly origin: string;
  /** The pins as JSON text (a `PinsExport`), for storage. */
  exportPins(): string;
  /** Restores exported pins; returns how many were read. */
  importPins(pins: string | PinsExport): number;
  /** Accepts a change of the server's signer: the pin is dropped, and the next signature that holds pins it again. Returns whether there was a pin. */
  acceptSignerChange(): boolean;
  /** Releases the WebAssembly state. */
  close(): void;
}
