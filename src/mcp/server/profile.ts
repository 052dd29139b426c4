/**
 * What `createMcpServer` serves: a profile bundles the tools (compiled contracts + handlers), optional resources and
 * prompts, and the limits. A profile is built once per process (contracts checked, bootstrap text read); a server is
 * cheap and may be created per connection or per HTTP request.
 */
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Server,
  ServerCapabilities,
  ServerOptions,
} from '@modelcontextprotocol/server';
import type { CompiledToolContract, ToolContract } from './tool-contract.js';
import type { JsonObject } from '../../core/index.js';
import type { FaultReporter, ToolAnswer, ToolCallObserver, ToolHandler } from './tool-call.js';
import type { McpRequestTracer } from './request-trace.js';

/** Something a profile adds to the server: capabilities, and handlers registered before the server connects. */
export interface ServerExtension {
  readonly capabilities?: ServerCapabilities;
  /** Extra server options (e.g. `requestState`, `inputRequired`); merged over ours. */
  readonly options?: Pick<ServerOptions, 'requestState' | 'inputRequired'>;
  register(server: Server): void;
}

export const ProfileName = {
  WorkflowEngine: 'workflow-engine',
  Runs: 'runs',
} as const;
export type ProfileName = (typeof ProfileName)[keyof typeof ProfileName];

/** One round of a multi-round call: the request state echoed back, the person's answer, who is calling. */
export interface ToolRound {
  readonly requestState: string | undefined;
  /** The form's answer (`inputResponses`), when the client sent one. */
  readonly answer: { readonly action: 'accept' | 'decline' | 'cancel'; readonly content?: unknown } | undefined;
  /** The authenticated principal's id; undefined on stdio. */
  readonly principalId: string | undefined;
}

/** One served tool: its checked contract and the function that answers it. */
export interface ToolEntry {
  readonly contract: CompiledToolContract;
  readonly handler: ToolHandler;
  /**
   * For a client that can show the person a form (MCP 2026-07-28 form elicitation): answers instead of `handler`,
   * and may ask a question first (server.ts turns it into an `input_required` result).
   */
  readonly multiRound?: (args: JsonObject, round: ToolRound) => Promise<ToolAnswer>;
  /**
   * For a client that declared `extension` on the request (MCP 2026-07-28 Tasks): answers instead of `handler` and
   * may return a task (`{ok: 'task'}`, sent as `resultType: "task"`) the client then follows with `tasks/get`.
   */
  readonly task?: { readonly extension: string; readonly handler: (args: JsonObject) => Promise<ToolAnswer> };
}

/** Resources of a profile. `read` throws a JsonRpcFault (-32002 with `data.uri`) for an unknown URI. */
export interface ResourceProvider {
  list(): Promise<Resource[]>;
  templates(): ResourceTemplate[];
  read(uri: string): Promise<ReadResourceResult>;
}

/** Prompts of a profile. `get` throws a JsonRpcFault (-32602) for an unknown prompt name. */
export interface PromptProvider {
  list(): Prompt[];
  get(name: string): GetPromptResult;
}

/** Everything one MCP server instance needs. */
export interface McpProfile {
  readonly name: ProfileName;
  readonly instructions?: string;
  readonly tools: readonly ToolEntry[];
  readonly resources?: ResourceProvider;
  readonly prompts?: PromptProvider;
  /** Upper bound on one call's serialized arguments. */
  readonly maxArgumentBytes: number;
  readonly onFault?: FaultReporter;
  /** Told how every tool call ended and how long it took (metrics); never sees arguments, results or the caller. */
  readonly observeToolCall?: ToolCallObserver;
  /** Told about every MCP request and how it ended (tracing; request-trace.ts); never arguments, results or the caller. */
  readonly traceRequest?: McpRequestTracer;
  /** Extra methods and capabilities (e.g. the tasks extension), registered after the built-in ones (server.ts). */
  readonly extensions?: readonly ServerExtension[];
}

/** Default request cap of the workflow-engine profile (artifact bodies travel in prepare_step_validation). */
export const WORKFLOW_ENGINE_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** Default request cap of the runs profile (run documents are at most 256 KiB). */
export const RUNS_MAX_REQUEST_BYTES = 1024 * 1024;

export type { ToolContract };
