/**
 * The `rimthan` package root: the entry points most embedders need, by name. Each area also has its own subpath
 * export (`rimthan/core`, `rimthan/registry`, `rimthan/guided`, `rimthan/runs`, `rimthan/tools`, `rimthan/mcp`) with
 * its full public surface.
 */
export { RimthanError, isRimthanError, canonicalJson, KeyRing, TokenSigner } from './core/index.js';
export type { JsonObject, JsonValue, Clock } from './core/index.js';

export {
  FolderReleaseStore,
  ActiveReleaseChannel,
  packagedReleaseStore,
  verifyReleaseFile,
  checkSource,
  buildRelease,
  workflowMermaid,
} from './registry/index.js';
export type { Release, ReleaseFile, WorkflowDefinition } from './registry/index.js';

export { createGuidedEngine, createReleaseScope, GUIDED_TOOL_CONTRACTS, GuidedError } from './guided/index.js';
export type { GuidedEngine, ReleaseScope } from './guided/index.js';

export { defineFlow, FlowCatalog, Supervisor, exampleCatalog } from './runs/index.js';
export type { FlowSpec, FlowDefinition, RunStore, RunRecord } from './runs/index.js';
export { openRunStore, SqliteRunStore, PostgresRunStore } from './runs/store/index.js';

export { createRunTools, findRunTool, RunToolName } from './tools/index.js';
export type { RunTool, RunToolResult } from './tools/index.js';

export {
  createMcpServer,
  createWorkflowEngineProfile,
  createRunsProfileFactory,
  storeReleaseProvider,
  startHttpTransport,
  serveStdio,
  loadSigningSetup,
  packageVersion,
} from './mcp/index.js';
export type { McpProfile, ReleaseProvider, HttpEndpoint, HttpTransportOptions, SigningSetup } from './mcp/index.js';
