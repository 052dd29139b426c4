/**
 * The MCP layer's public surface (the `rimthan/mcp` export): the server factory, the two profiles and what a profile
 * is made of (tool contracts, release providers, the extensions and the wire names they own), the two transports'
 * entry points and the signing-key setup. Everything else under src/mcp/ is internal; HTTP plumbing is src/http/.
 */
export { createMcpServer, SERVER_NAME } from './server.js';
export type { McpProfile, ToolEntry, ResourceProvider, PromptProvider } from './profile.js';
export { ProfileName, WORKFLOW_ENGINE_MAX_REQUEST_BYTES, RUNS_MAX_REQUEST_BYTES } from './profile.js';
export { createWorkflowEngineProfile } from './workflow-engine-profile.js';
export type { WorkflowEngineProfileOptions } from './workflow-engine-profile.js';
export { createRunsProfileFactory } from './runs-profile.js';
export type { RunsProfileFactory, RunsProfileOptions } from './runs-profile.js';
export { createRunTasksExtension, TASKS_EXTENSION_ID } from './run-tasks.js';
export { createSkillsExtension, SKILLS_EXTENSION_ID } from './skills-extension.js';
export type { ReleaseProvider, Scoped } from './release-scopes.js';
export { followerReleaseProvider, storeReleaseProvider } from './release-provider.js';
export type { StoreProviderOptions } from './release-provider.js';
export { compileToolContracts } from './tool-contract.js';
export type { ToolContract, ToolAnnotations, CompiledToolContract } from './tool-contract.js';
export { runToolCall } from './tool-call.js';
export type { ToolOutcome, ToolFailure, ToolHandler, FaultReporter } from './tool-call.js';
export { BOOTSTRAP_URI } from './resource-uris.js';
export { START_WORKFLOW_PROMPT } from './workflow-resources.js';
export { CACHE_SCOPE_META_KEY } from './wire.js';
export { startHttpTransport } from './http.js';
export type { HttpEndpoint, HttpTransportOptions, HttpTimeouts } from './http.js';
export { serveStdio } from './stdio.js';
export type { StdioOptions } from './stdio.js';
export { loadSigningSetup } from './signing-key.js';
export type { SigningSetup } from './signing-key.js';
export { packageVersion } from '../package/index.js';
