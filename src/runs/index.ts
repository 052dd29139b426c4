/**
 * rimthan/runs — durable workflow runs. This file is the whole public API of the area:
 * flows (define, catalog), the supervisor and its session controller, the store interface and the SQLite store,
 * deterministic ids, and the example flows.
 */
export { defineFlow } from './flow/define.js';
export type {
  ConcurrencySpec,
  EdgeSpec,
  FlowSpec,
  GraphSpec,
  NextSpec,
  RetryPolicy,
  UpgradeSpec,
  VertexContext,
  VertexSpec,
} from './flow/types.js';
export {
  FlowCatalog,
  FLOW_NAME_PATTERN,
  MAX_DESCRIPTION_BYTES,
  MAX_VERSION_BYTES,
  type CompiledUpgrade,
  type FlowDefinition,
} from './flow/catalog.js';
export { GRAPH_LIMITS, VERTEX_ID_PATTERN, type CompiledGraph, type CompiledVertex } from './flow/graph.js';
export { MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH } from './flow/check-schema.js';
export { FlowInterrupt } from './flow/interrupt.js';
export { flowShape, type FlowShape, type FlowShapeEdge, type FlowShapeVertex } from './flow/flow-shape.js';
export { flowMermaid } from './flow/flow-mermaid.js';

export { Supervisor } from './supervisor/supervisor.js';
export {
  checkDeployment,
  restartRun,
  sendEvent,
  upgradeRun,
  type DeploymentCheck,
  type SendEventRequest,
  type SendEventResult,
  type RemovedVersions,
  type RestartRequest,
  type UpgradeRequest,
} from './operator/index.js';
export { SUPERVISOR_DEFAULTS } from './supervisor/options.js';
export type {
  PrepareRun,
  SessionController,
  StartOutcome,
  StartRequest,
  StartStage,
  SupervisorOptions,
} from './supervisor/types.js';
export { StartRefusal } from './supervisor/types.js';
export { DEFAULT_CANCEL_REASON, normalizeCancelReason } from './supervisor/cancel-command.js';
export type { ErrorContext, ExecutionEnd } from './executor/run-execution.js';
export { CHILD_RECHECK_MS } from './executor/wait-session.js';
export type { RunTrace, RunTracer } from './executor/run-trace.js';
export { activityEventId, ACTIVITY_NAMESPACE, type EventIdParts } from './executor/event-id.js';
export { attemptIdOf, TRIES_PER_EPOCH, vertexIdempotencyKey } from './executor/idempotency-key.js';
export { decodeCheckpoint, CHECKPOINT_FORMAT, type FlowCheckpoint } from './executor/checkpoint-state.js';
export { INPUT_LIMITS } from './executor/run-loader.js';
export { MAX_FLOW_STATE_BYTES } from './executor/state-update.js';

export {
  ActivityKind,
  RunStatus,
  StoreConflictError,
  StoreArgumentError,
  TERMINAL_STATUSES,
  STORE_LIMITS,
  SqliteRunStore,
  PostgresRunStore,
  openRunStore,
  type ActivityEntry,
  type ArtifactDescriptor,
  type ArtifactNamespace,
  type Checkpoint,
  type Commit,
  type CommitLease,
  type DefinitionUse,
  type StoreObserver,
  type HistoryQuery,
  type InterruptInfo,
  type ListQuery,
  type NewRunRecord,
  type ParkOutcome,
  type PostgresRunStoreOptions,
  type RunEvent,
  type RunPark,
  type RunWaits,
  type ConcurrencySlot,
  type RunConcurrency,
  type SendEventOutcome,
  WAIT_FOREVER,
  type RunInsights,
  type RunLedger,
  type RunPatch,
  type RunQueue,
  type RunRecord,
  type RunStore,
  type SessionQuery,
  type SessionSummary,
  type SqliteRunStoreOptions,
  MAX_PRUNE_BATCH,
  type PruneQuery,
  type PruneResult,
  type RunRetention,
} from './store/index.js';

export {
  exampleCatalog,
  releaseNotesFlow,
  RELEASE_NOTES_FLOW,
  type ExampleCatalogOptions,
  type ReleaseNotesInput,
  type ReleaseNotesOptions,
  type ReleaseNotesState,
} from './examples/index.js';

export type { ScheduleSpec } from './flow/types.js';
export { SCHEDULE_ID_PATTERN, SCHEDULE_LIMITS, type CompiledSchedule } from './flow/schedules.js';
export type {
  RunSchedules,
  ScheduleDeclaration,
  ScheduleQuery,
  ScheduleRecord,
  ScheduleUpdate,
} from './store/index.js';
export { scheduleSessionId, listAllSchedules } from './supervisor/scheduler.js';
