/**
 * The release model: what an immutable registry release contains once it has been compiled from an authoring
 * source folder (see docs/authoring.md) and verified. `guided/` reads only these types; `registry/` produces them.
 *
 * Everything here is plain JSON (no Maps, no classes) so a release can be canonicalised, digested and shipped as one
 * file. Identifiers are kebab-case (`^[a-z][a-z0-9-]{0,63}$`); versions are semantic versions (`1.2.0`).
 */
import type { JsonObject, JsonValue } from '../../core/json.js';

/** Asset kinds served at rimthan://registry/{release}/assets/{kind}/{asset_id}/{version}/content. */
export const AssetKind = {
  Instruction: 'instruction',
  Prompt: 'prompt',
  Skill: 'skill',
  Subagent: 'subagent',
  HostAdapter: 'host-adapter',
  ValidatorBrief: 'validator-brief',
} as const;
export type AssetKind = (typeof AssetKind)[keyof typeof AssetKind];

/** Host-deliverable asset kinds: the ones setup-workspace must attest were delivered to the host. */
export const HostAssetKind = {
  Prompt: 'prompt',
  Skill: 'skill',
  Subagent: 'subagent',
} as const;
export type HostAssetKind = (typeof HostAssetKind)[keyof typeof HostAssetKind];

export const Harness = {
  Codex: 'codex',
  ClaudeCode: 'claude-code',
  Cowork: 'cowork',
  Buzz: 'buzz',
} as const;
export type Harness = (typeof Harness)[keyof typeof Harness];

export const HostCapability = {
  McpTools: 'mcp.tools',
  McpResources: 'mcp.resources',
  McpPrompts: 'mcp.prompts',
  NativeSubagents: 'native-subagents',
  ScopedInputs: 'scoped-inputs',
  ReadOnlyCapabilities: 'read-only-capabilities',
  StructuredReports: 'structured-reports',
  ProjectLocalAssets: 'project-local-assets',
} as const;
export type HostCapability = (typeof HostCapability)[keyof typeof HostCapability];

export const ValidatorCapability = {
  WorkspaceRead: 'workspace.read',
  WebRead: 'web.read',
  BrowserRead: 'browser.read',
  GitRead: 'git.read',
  DatabaseRead: 'database.read',
} as const;
export type ValidatorCapability = (typeof ValidatorCapability)[keyof typeof ValidatorCapability];

export const DeliveryMode = {
  DynamicContext: 'dynamic-context',
  ProjectLocal: 'project-local',
} as const;
export type DeliveryMode = (typeof DeliveryMode)[keyof typeof DeliveryMode];

export const WritePolicy = {
  CreateOwned: 'create-owned',
  CreateOrReplaceOwned: 'create-or-replace-owned',
  CreateOrVerifyOwned: 'create-or-verify-owned',
  MustExist: 'must-exist',
} as const;
export type WritePolicy = (typeof WritePolicy)[keyof typeof WritePolicy];

export const ArtifactMediaType = {
  Json: 'application/json',
  Markdown: 'text/markdown',
} as const;
export type ArtifactMediaType = (typeof ArtifactMediaType)[keyof typeof ArtifactMediaType];

/** A pinned reference to a versioned release entry. */
export interface Ref {
  readonly id: string;
  readonly version: string;
}

/** A registry asset: Markdown (or TOML-free text) content plus metadata. `sha256` is over the UTF-8 content bytes. */
export interface AssetEntry {
  readonly kind: AssetKind;
  readonly id: string;
  readonly version: string;
  readonly title: string;
  /** Host-neutral description (used for SKILL.md / agent frontmatter `description`, ≤1024 chars). */
  readonly description: string;
  readonly content: string;
  readonly sha256: string;
  /** Only for kind `subagent`: tools the host should grant (Claude Code `tools:` frontmatter). */
  readonly tools?: readonly string[];
  /**
   * Only for kind `subagent`: true when the subagent never writes. Hosts with a sandbox setting enforce it (the Codex
   * agent file carries `sandbox_mode = "read-only"`); absent means no sandbox is set.
   */
  readonly read_only?: boolean;
  /** Only for kind `host-adapter`. */
  readonly adapter?: HostAdapterSpec;
}

export interface HostAdapterSpec {
  /** Harness names this adapter may serve. */
  readonly compatible_harnesses: readonly Harness[];
  /** Present (and required) from adapter version 1.1.0 on; legacy adapters without it load but cannot start. */
  readonly adapter_contract?: AdapterContract;
}

export interface AdapterContract {
  /** Host capabilities the adapter needs from the harness, on top of the workflow's own requirements. */
  readonly required_host_capabilities: readonly HostCapability[];
  /** Allowed delivery modes per host asset kind. */
  readonly delivery: Readonly<Record<HostAssetKind, readonly DeliveryMode[]>>;
  /**
   * Project-local path templates per host asset kind, e.g. `.claude/skills/{asset_id}/SKILL.md`. A kind without a template
   * cannot be delivered project-locally. Each template holds exactly one `{asset_id}`, is a relative normalised POSIX path
   * and never lies under `.git`, `.hg`, `.svn` or `.rimthan`.
   */
  readonly project_local_paths: Readonly<Partial<Record<HostAssetKind, string>>>;
}

export interface SchemaEntry {
  readonly id: string;
  readonly version: string;
  /** A JSON Schema 2020-12 document (checked against the meta-schema when the release is built and loaded). */
  readonly schema: JsonObject;
  readonly sha256: string;
}

export interface ArtifactDeclaration {
  readonly artifact_id: string;
  /** Project-relative normalised POSIX path the harness writes. */
  readonly path: string;
  readonly media_type: ArtifactMediaType;
  /** Required for `application/json`; absent for Markdown. */
  readonly schema?: Ref;
  readonly max_bytes: number;
  readonly write_policy: WritePolicy;
}

/** A closed branch predicate over a top-level confirmed-state field. */
export type BranchPredicate =
  | { readonly field: string; readonly equals: string | number | boolean }
  | { readonly field: string; readonly in: readonly (string | number | boolean)[] };

export interface Branch {
  readonly when: BranchPredicate;
  readonly to: string;
}

/** The one question asked while a branch field is missing from confirmed state. */
export interface StepQuestion {
  readonly field: string;
  readonly prompt: string;
  readonly options?: readonly { readonly value: string | number | boolean; readonly label: string }[];
}

export interface StepDefinition {
  readonly id: string;
  readonly title: string;
  readonly instruction: Ref;
  /** Host assets (prompt/skill/subagent) this step needs the host to have; setup-workspace attests all of the workflow's. */
  readonly host_assets: readonly (Ref & { readonly kind: HostAssetKind })[];
  /** Artifacts from earlier steps this step reads (their receipts must exist). */
  readonly inputs: readonly string[];
  readonly outputs: readonly ArtifactDeclaration[];
  readonly validators: readonly Ref[];
  /** Linear successor; mutually exclusive with `branches`. Neither means terminal. */
  readonly next?: string;
  readonly branches?: readonly Branch[];
  readonly question?: StepQuestion;
}

export interface WorkflowDefinition {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  readonly description: string;
  readonly entry_aliases: readonly string[];
  readonly confirmed_state_schema: Ref;
  readonly required_host_capabilities: readonly HostCapability[];
  readonly required_validator_capabilities: readonly ValidatorCapability[];
  /** The pinned host adapter per harness this workflow supports. */
  readonly host_adapters: Readonly<Partial<Record<Harness, Ref>>>;
  /** Always `setup-workspace` (authoring validation enforces it). */
  readonly start_step: string;
  readonly steps: readonly StepDefinition[];
}

export interface ValidatorDefinition {
  readonly id: string;
  readonly version: string;
  readonly title: string;
  /** The self-contained brief the host's validator subagent follows (asset kind `validator-brief`). */
  readonly brief: Ref;
  /** Artifact IDs the validator reads (read-only). */
  readonly input_artifacts: readonly string[];
  readonly required_capabilities: readonly ValidatorCapability[];
  /**
   * A required validator's pass receipt is part of what makes a step's work accepted (a gated step whose outputs and
   * required validators all hold receipts for the current inputs may move on). Every submitted report counts: any
   * failed report keeps the step active.
   */
  readonly required: boolean;
}

/** One manifest line: an entry of the release, addressed by its resource URI suffix, with its content digest. */
export interface ManifestEntry {
  /** `workflow` | `asset` | `validator` | `schema`. */
  readonly type: 'workflow' | 'asset' | 'validator' | 'schema';
  /** For assets `<kind>/<id>`; otherwise the id. */
  readonly key: string;
  readonly version: string;
  /** SHA-256 (lowercase hex) of the RFC 8785 canonical JSON of the entry. */
  readonly sha256: string;
}

export interface ReleaseManifest {
  readonly registry_id: string;
  /** The release name used in URIs (`rimthan://registry/{release}/...`), e.g. `research-2026.11.1`. */
  readonly release: string;
  readonly entries: readonly ManifestEntry[];
}

/** The verified, in-memory release every engine works from. */
export interface Release {
  readonly registry_id: string;
  readonly release: string;
  readonly manifest: ReleaseManifest;
  /** SHA-256 of the canonical manifest. */
  readonly manifest_sha256: string;
  readonly workflows: readonly WorkflowDefinition[];
  readonly assets: readonly AssetEntry[];
  readonly validators: readonly ValidatorDefinition[];
  readonly schemas: readonly SchemaEntry[];
}

/** The on-disk release file written by `rimthan registry build`. */
export interface ReleaseFile {
  readonly format: 'rimthan.release/v1';
  readonly manifest: ReleaseManifest;
  readonly manifest_sha256: string;
  readonly workflows: readonly WorkflowDefinition[];
  readonly assets: readonly AssetEntry[];
  readonly validators: readonly ValidatorDefinition[];
  readonly schemas: readonly SchemaEntry[];
}

export type { JsonValue };
