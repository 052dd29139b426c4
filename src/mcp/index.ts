/**
 * The MCP layer's public surface (the `rimthan/mcp` export): the server factory, the two profiles and what a profile
 * is made of (tool contracts, release providers, the extensions and the wire names they own), the two transports'
 * entry points and the signing-key setup. Everything else under src/mcp/ is internal; HTTP plumbing is src/http/.
 * Sub-rooms: server/ (the server factory, profiles, the tool-call path, wire names), transports/ (stdio, Streamable
 * HTTP), workflow-engine/ and runs/ (the two profiles and what they serve), extensions/ (Tasks, Skills).
 */
export { createMcpServer, SERVER_NAME } from './server/server.js';
export type { McpProfile, ToolEntry, ResourceProvider, PromptProvider } from './server/profile.js';
export { ProfileName, WORKFLOW_ENGINE_MAX_REQUEST_BYTES, RUNS_MAX_REQUEST_BYTES } from './server/profile.js';
export { createWorkflowEngineProfile } from './workflow-engine/profile.js';
export type { WorkflowEngineProfileOptions } from './workflow-engine/profile.js';
export { createRunsProfileFactory } from './runs/profile.js';
export type { RunsProfileFactory, RunsProfileOptions } from './runs/profile.js';
export { createRunTasksExtension, TASKS_EXTENSION_ID } from './extensions/tasks.js';
export { createSkillsExtension, SKILLS_EXTENSION_ID } from './extensions/skills.js';
export type { ReleaseProvider, Scoped } from './workflow-engine/release-scopes.js';
export { followerReleaseProvider, storeReleaseProvider } from './workflow-engine/release-provider.js';
export type { StoreProviderOptions } from './workflow-engine/release-provider.js';
export { compileToolContracts } from './server/tool-contract.js';
export type { ToolContract, ToolAnnotations, CompiledToolContract } from './server/tool-contract.js';
export { runToolCall } from './server/tool-call.js';
export type { ToolOutcome, ToolFailure, ToolHandler, FaultReporter } from './server/tool-call.js';
export { BOOTSTRAP_URI } from './workflow-engine/resource-uris.js';
export { START_WORKFLOW_PROMPT } from './workflow-engine/workflow-resources.js';
export { CACHE_SCOPE_META_KEY } from './server/wire.js';
export { startHttpTransport } from './transports/http.js';
export type { HttpEndpoint, HttpTransportOptions, HttpTimeouts } from './transports/http.js';
export { serveStdio } from './transports/stdio.js';
export type { StdioOptions } from './transports/stdio.js';
export { loadSigningSetup } from './server/signing-key.js';
export type { SigningSetup } from './server/signing-key.js';
export { packageVersion } from '../package/index.js';
