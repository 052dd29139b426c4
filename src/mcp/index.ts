/**
 * The MCP layer's public surface: the server factory, the two profiles, the transports and the signing-key setup.
 * Everything else under src/mcp/ is internal.
 */
export { createMcpServer, SERVER_NAME } from './server.js';
export type { McpProfile, ToolEntry, ResourceProvider, PromptProvider } from './profile.js';
export { ProfileName, WORKFLOW_ENGINE_MAX_REQUEST_BYTES, RUNS_MAX_REQUEST_BYTES } from './profile.js';
export { createWorkflowEngineProfile } from './workflow-engine-profile.js';
export type { WorkflowEngineProfileOptions } from './workflow-engine-profile.js';
export { createRunsProfileFactory } from './runs-profile.js';
export type { RunsProfileFactory, RunsProfileOptions } from './runs-profile.js';
export { createRunTasksExtension, resumeInputKey, TASKS_EXTENSION_ID, taskOfHandle } from './run-tasks.js';
export type { ReleaseProvider, Scoped } from './release-scopes.js';
export { followerReleaseProvider, storeReleaseProvider } from './release-provider.js';
export type { StoreProviderOptions } from './release-provider.js';
export { compileToolContracts } from './tool-contract.js';
export type { ToolContract, ToolAnnotations, CompiledToolContract } from './tool-contract.js';
export { runToolCall, INVALID_ARGUMENTS } from './tool-call.js';
export type { ToolOutcome, ToolFailure, ToolHandler, FaultReporter, ToolCallObserver } from './tool-call.js';
export { BOOTSTRAP_URI, parseRegistryUri, registryUri, resourceTemplates } from './resource-uris.js';
export type { RegistryPath, RegistryUri } from './resource-uris.js';
export { START_WORKFLOW_PROMPT } from './workflow-resources.js';
export { createSkillsExtension, SKILLS_EXTENSION_ID } from './skills-extension.js';
export { RELEASE_ASSET_META_KEY } from '../guided/index.js';
export { loadBootstrapParagraph, extractBootstrapParagraph, BOOTSTRAP_DOCUMENT } from './bootstrap.js';
export {
  startHttpTransport,
  mcpRequestListener,
  hardenHttpServer,
  DEFAULT_ALLOWED_HOSTS,
  HTTP_TIMEOUT_DEFAULTS,
} from './http.js';
export type { HttpEndpoint, HttpTransportOptions, HttpTimeouts } from './http.js';
export { CACHE_CONTROL } from './http-guards.js';
export { listenHttp, type BoundListener } from './listen.js';
export { isClientDisconnect } from './http-body.js';
export { serveStdio, StrictStdioTransport } from './stdio.js';
export type { StdioOptions } from './stdio.js';
export { loadSigningSetup, rimthanStateDirectory } from './signing-key.js';
export type { SigningSetup } from './signing-key.js';
export { CACHE_SCOPE_META_KEY, JsonRpcFault, RpcCode } from './wire.js';
export { packageVersion } from '../package/index.js';
export { RequestGuard } from './http-guards.js';
export type { RequestGuardOptions } from './http-guards.js';
