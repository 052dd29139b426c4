/**
 * The JSON the console's endpoints answer with. Shared by the server (src/console) and the page (src/console/web), so
 * both sides agree at compile time. Pure types: nothing here runs.
 */
import type { WorkflowGraphEdge, WorkflowGraphNode } from '../registry/index.js';

/** Every refusal: the same shape as the run tools' errors (`reason` narrows a guided protocol error). */
export interface ApiError {
  readonly error: { readonly code: string; readonly message: string; readonly reason?: string };
}

/** Who the page is talking as. */
export interface MeAnswer {
  /** `operator`: signed in with the one-time link on loopback, may choose any session of the run store. */
  readonly mode: 'operator' | 'caller';
  /** The caller's own session (mode `caller`), else the console's default session (may be null). */
  readonly session: string | null;
  readonly release_store: string;
  /** Repositories whose `.rimthan/workflow-session.json` the server may read (`--workspace`). */
  readonly workspaces: readonly { readonly index: number; readonly label: string }[];
}

export interface RefView {
  readonly id: string;
  readonly version: string;
}

export type ChannelName = 'active' | 'migration-target';

export interface ReleaseListItem {
  readonly release: string;
  /** `verified`, or why the release cannot be served (e.g. `release_too_large`, a digest mismatch). */
  readonly status: string;
  readonly registry_id?: string;
  readonly manifest_sha256?: string;
  readonly workflows: readonly (RefView & { readonly title: string })[];
  readonly channels: readonly ChannelName[];
}

export interface ChannelChangeView {
  readonly channel: ChannelName;
  readonly release: string | null;
  readonly previous: string | null;
  readonly at: string;
  readonly by?: string;
}

export interface ReleasesAnswer {
  readonly store: string;
  readonly active: string | null;
  readonly migration_target: string | null;
  /** Said when the store has no migration-target channel (the folder store): what a migration moves to instead. */
  readonly migration_note?: string;
  readonly releases: readonly ReleaseListItem[];
  readonly history: readonly ChannelChangeView[];
}

/** A step of a drawn workflow and a transition: the registry's own graph structure (see registry/graph.ts). */
export type GraphNodeView = WorkflowGraphNode;
export type GraphEdgeView = WorkflowGraphEdge;

export interface GraphView {
  readonly start: string;
  readonly nodes: readonly GraphNodeView[];
  readonly edges: readonly GraphEdgeView[];
}

export interface SchemaView extends RefView {
  readonly sha256: string;
  readonly schema: unknown;
}

export interface AssetView extends RefView {
  readonly kind: string;
  readonly title: string;
  readonly description: string;
  readonly sha256: string;
  readonly content: string;
}

export interface HostAdapterView extends RefView {
  readonly harness: string;
  readonly title: string;
  readonly description: string;
  readonly compatible_harnesses: readonly string[];
  /** null for a legacy adapter without a contract (it loads but cannot start a workflow). */
  readonly contract: {
    readonly required_host_capabilities: readonly string[];
    readonly delivery: Readonly<Record<string, readonly string[]>>;
    readonly project_local_paths: Readonly<Record<string, string>>;
  } | null;
}

export interface ReleaseAnswer {
  readonly release: string;
  readonly registry_id: string;
  readonly manifest_sha256: string;
  readonly channels: readonly ChannelName[];
  readonly workflows: readonly (RefView & {
    readonly title: string;
    readonly description: string;
    readonly steps: number;
  })[];
  readonly entries: readonly {
    readonly type: string;
    readonly key: string;
    readonly version: string;
    readonly sha256: string;
  }[];
}

export interface WorkflowAnswer {
  readonly release: string;
  readonly workflow: RefView & {
    readonly title: string;
    readonly description: string;
    readonly entry_aliases: readonly string[];
    readonly start_step: string;
    readonly required_host_capabilities: readonly string[];
    readonly required_validator_capabilities: readonly string[];
    readonly confirmed_state_schema: SchemaView | null;
  };
  readonly graph: GraphView;
  readonly host_adapters: readonly HostAdapterView[];
}

export interface OutputView {
  readonly artifact_id: string;
  readonly path: string;
  readonly media_type: string;
  readonly max_bytes: number;
  readonly write_policy: string;
  readonly schema: SchemaView | null;
}

export interface ValidatorView extends RefView {
  readonly title: string;
  readonly required: boolean;
  readonly required_capabilities: readonly string[];
  readonly input_artifacts: readonly string[];
  readonly brief: AssetView | null;
}

export interface QuestionView {
  readonly field: string;
  readonly prompt: string;
  readonly options: readonly { readonly value: string | number | boolean; readonly label: string }[];
}

export interface StepAnswer {
  readonly release: string;
  readonly workflow: RefView;
  readonly step: {
    readonly id: string;
    readonly title: string;
    readonly instruction: AssetView | null;
    readonly host_assets: readonly (RefView & { readonly kind: string; readonly title: string })[];
    readonly inputs: readonly string[];
    readonly outputs: readonly OutputView[];
    readonly validators: readonly ValidatorView[];
    readonly next: string | null;
    readonly branches: readonly { readonly label: string; readonly to: string }[];
    readonly question: QuestionView | null;
  };
}

export interface EntryChange {
  readonly type: string;
  readonly key: string;
  readonly from: readonly string[];
  readonly to: readonly string[];
  /** Versions present on both sides whose content digest differs. */
  readonly rewritten: readonly string[];
}

export interface StepChange {
  readonly id: string;
  /** What changed: title, instruction, host assets, inputs, outputs, validators, transitions, question. */
  readonly aspects: readonly string[];
}

export interface WorkflowDiffView {
  readonly id: string;
  readonly from_version: string | null;
  readonly to_version: string | null;
  readonly steps: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly StepChange[];
  };
}

export interface MigrationView {
  readonly workflow: string;
  readonly from_version: string;
  readonly to_version: string | null;
  /** null when the migration is possible; else the protocol refusal a migration request would get. */
  readonly refusal: { readonly reason: string; readonly message: string } | null;
  readonly restart_step: string | null;
  /** Every receipt a checkpoint of the source version can hold: a migration invalidates them all. */
  readonly invalidated_artifacts: readonly string[];
  readonly invalidated_validators: readonly string[];
  /** The target's confirmed-state schema: every field must be confirmed again after the checkpoint. */
  readonly reconfirm_schema: RefView | null;
  readonly host_adapters: readonly {
    readonly harness: string;
    readonly from: RefView | null;
    readonly to: RefView | null;
  }[];
}

export interface DiffAnswer {
  readonly from: string;
  readonly to: string;
  readonly entries: {
    readonly added: readonly EntryChange[];
    readonly removed: readonly EntryChange[];
    readonly changed: readonly EntryChange[];
  };
  readonly workflows: readonly WorkflowDiffView[];
  readonly migrations: readonly MigrationView[];
}

/** A run tool's safe run result (never the input, flow state or model output). */
export interface SafeRunView {
  readonly run_id: string;
  readonly definition_name: string;
  readonly definition_version: string;
  readonly run_status: string;
  readonly status_summary?: string;
  readonly checkpoint_revision: number;
  readonly activity_cursor: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly interrupt?: {
    readonly reason: string;
    readonly vertex: string;
    readonly vertex_label: string;
    readonly resume_supported: boolean;
  };
}

export interface HistoryEntryView {
  readonly revision: number;
  readonly event_id: string;
  readonly kind: string;
  readonly run_status: string;
  readonly occurred_at: string;
  readonly vertex_id?: string;
  readonly vertex_label?: string;
  readonly completed_vertices?: number;
  readonly total_vertices?: number;
  readonly message?: string;
}

export interface DefinitionView {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly input_schema: unknown;
  readonly resume_supported: boolean;
  readonly resume_schema?: unknown;
}

export interface DefinitionsAnswer {
  readonly definitions: readonly DefinitionView[];
  readonly truncated: boolean;
}

/** A session of the run store, as the session picker lists it. */
export interface SessionView {
  /** The store's session id: a pseudonym (a caller's is `bearer-` and a digest of its token), never a token. */
  readonly session: string;
  readonly runs: number;
  /** Runs per status; every status is present. */
  readonly by_status: Readonly<Record<string, number>>;
  /** When one of its runs last changed (RFC 3339 UTC). */
  readonly last_activity: string;
}

export interface SessionsAnswer {
  /** In session id order; a caller's list holds its own session only (none before its first run). */
  readonly sessions: readonly SessionView[];
  /** The cursor of the next page (`after`), when more sessions follow. */
  readonly next?: string;
}

export interface RunsAnswer {
  readonly session: string;
  readonly runs: readonly SafeRunView[];
  /** Continue the scan here (more runs of the session remain). */
  readonly next?: string;
  /** Runs of the session looked at for this page (the filters apply to them). */
  readonly scanned: number;
}

export interface NextCallView {
  readonly status: string;
  /** The guided tool the harness calls next, or null when the workflow is completed. */
  readonly tool: string | null;
  readonly summary: string;
  readonly step: { readonly id: string; readonly title: string } | null;
  readonly missing_outputs: readonly { readonly artifact_id: string; readonly path: string }[];
  readonly missing_validators: readonly (RefView & { readonly title: string; readonly required: boolean })[];
  readonly question: QuestionView | null;
}

export interface SessionAnswer {
  /** The checkpoint verified against its pinned release with the tools' own checks. */
  readonly verified: boolean;
  /** Why it did not verify, or why the next call is refused (the tool error the harness would get). */
  readonly problem: { readonly code: string; readonly message: string; readonly reason?: string } | null;
  readonly release: string | null;
  readonly workflow: (RefView & { readonly title: string }) | null;
  readonly current_step: string | null;
  readonly sequence: number | null;
  readonly issued_at: string | null;
  readonly host: {
    readonly harness: string;
    readonly adapter: RefView;
    readonly host_capabilities: readonly string[];
    readonly validator_capabilities: readonly string[];
  } | null;
  readonly graph: GraphView | null;
  readonly receipts: {
    readonly artifacts: readonly {
      readonly artifact_id: string;
      readonly sha256: string;
      readonly step: string | null;
    }[];
    readonly validators: readonly { readonly key: string; readonly outcome: string; readonly input_sha256: string }[];
  };
  /** Steps whose outputs and required validators all hold receipts in the checkpoint. */
  readonly done_steps: readonly string[];
  readonly next: NextCallView | null;
  readonly blockers: readonly { readonly code: string; readonly detail: string }[];
  /** Confirmed-state fields: names and confirmations; a value only when it is a branch literal of the release. */
  readonly confirmed_fields: readonly {
    readonly field: string;
    readonly confirmed_by: string;
    readonly confirmed_at: string;
    readonly value?: string | number | boolean;
  }[];
}

/** A vertex's state on a run's flow graph. */
export type VertexStateView = 'waiting' | 'running' | 'done' | 'failed' | 'skipped';

/** One vertex of a run's flow graph: the flow's shape and what the run did there (no input, no state values). */
export interface RunGraphVertexView {
  readonly id: string;
  readonly label: string;
  readonly state: VertexStateView;
  /** Times it completed (a loop revisits; a `forEach` vertex completes once per item). */
  readonly completions: number;
  /** From the step that led to it to its latest completion (or, while it runs, the step's start: `started_at`). */
  readonly duration_ms?: number;
  readonly started_at?: string;
  /** Tries spent when its failure ended them (its retry policy's count); otherwise unknown and absent. */
  readonly attempts?: number;
  /** Its tries were spent and its error route took over. */
  readonly routed?: boolean;
  /** Branches of it in the current parallel step (a `forEach` vertex's instances), and how many committed. */
  readonly branches?: { readonly total: number; readonly done: number };
  readonly retry?: { readonly attempts: number; readonly backoff_ms: number };
  readonly timeout_ms?: number;
  readonly for_each_max_items?: number;
  readonly on_error?: string;
  readonly fan_out: boolean;
  readonly join: boolean;
  readonly decision: boolean;
  /** Child runs it started (their run pages). */
  readonly child_runs: readonly string[];
}

export interface RunGraphEdgeView {
  readonly from: string;
  /** null: a conditional edge whose vertex declares no targets (they are chosen at run time). */
  readonly to: string | null;
  readonly kind: 'static' | 'conditional' | 'error';
}

/** What the parked run awaits at its current vertex (timers, events by name, child runs); absent when not parked. */
export interface RunGraphAwaitView {
  readonly vertex: string;
  readonly timers: readonly { readonly until: string; readonly passed: boolean }[];
  readonly events: readonly {
    readonly name: string;
    readonly until: string | null;
    readonly outcome?: 'received' | 'timed_out';
  }[];
  readonly children: readonly string[];
}

export interface RunGraphChildView {
  readonly run_id: string;
  readonly definition_name: string;
  readonly definition_version: string;
  readonly run_status: string;
}

/** `GET /api/runs/:run_id/graph`. */
export interface RunGraphAnswer {
  readonly run_id: string;
  readonly definition_name: string;
  readonly definition_version: string;
  readonly run_status: string;
  readonly checkpoint_revision: number;
  readonly start: string;
  readonly vertices: readonly RunGraphVertexView[];
  readonly edges: readonly RunGraphEdgeView[];
  readonly awaits?: RunGraphAwaitView;
  readonly children: readonly RunGraphChildView[];
  /** The history was longer than the graph reads: states and durations cover its first entries only. */
  readonly history_truncated: boolean;
}
