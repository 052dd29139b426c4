/**
 * `createMcpServer(profile)`: one low-level SDK `Server` (raw JSON Schema 2020-12 on the wire, no zod) answering
 * tools, resources and prompts from a profile. Unknown tools are a JSON-RPC METHOD_NOT_FOUND; every listing carries the
 * private-cache `_meta` marker.
 *
 * Error discipline: every handler is guarded, so anything but a JsonRpcFault leaves as a bare "internal error" (the
 * SDK would otherwise put the exception's message on the wire). Params are checked here, not by the SDK: its own check
 * answers a malformed request with -32603 and a validator dump; ours answers -32602 with a fixed message.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { InitializeResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { McpProfile, ToolEntry } from './profile.js';
import { runToolCall } from './tool-call.js';
import { packageVersion } from './version.js';
import { internalFault, JsonRpcFault, privateCacheMeta, RpcCode } from './wire.js';

/** The name clients see in `serverInfo`; harnesses verify it before trusting the tools. */
export const SERVER_NAME = 'rimthan';

function capabilitiesOf(profile: McpProfile): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: false } };
  if (profile.resources !== undefined) capabilities.resources = { listChanged: false, subscribe: false };
  if (profile.prompts !== undefined) capabilities.prompts = { listChanged: false };
  return capabilities;
}

/** What we need of an SDK request schema: a safe parse. */
interface RequestSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** The request as the SDK schema reads it, or -32602 with a message that quotes nothing of the request. */
function paramsOf<T>(schema: RequestSchema<T>, method: string, request: unknown): T {
  const parsed = schema.safeParse(request);
  if (!parsed.success) throw new JsonRpcFault(RpcCode.InvalidParams, `invalid params for ${method}`);
  return parsed.data;
}

/** Wraps a handler so that anything but a JsonRpcFault leaves as a bare "internal error". */
function guarded<A extends unknown[], R>(profile: McpProfile, where: string, fn: (...args: A) => Promise<R> | R) {
  return async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (error) {
      if (error instanceof JsonRpcFault) throw error;
      profile.onFault?.(where, error);
      throw internalFault();
    }
  };
}

/**
 * Routes by method only (the schema keeps nothing but the method literal and passes the rest through untouched), so
 * the SDK's own params parse cannot fail before ours does.
 */
const ByMethod = {
  toolsList: ListToolsRequestSchema.pick({ method: true }).loose(),
  toolsCall: CallToolRequestSchema.pick({ method: true }).loose(),
  resourcesList: ListResourcesRequestSchema.pick({ method: true }).loose(),
  templatesList: ListResourceTemplatesRequestSchema.pick({ method: true }).loose(),
  resourcesRead: ReadResourceRequestSchema.pick({ method: true }).loose(),
  promptsList: ListPromptsRequestSchema.pick({ method: true }).loose(),
  promptsGet: GetPromptRequestSchema.pick({ method: true }).loose(),
} as const;

function registerTools(server: Server, profile: McpProfile): void {
  const tools = new Map<string, ToolEntry>(profile.tools.map((t) => [t.contract.name, t]));
  server.setRequestHandler(
    ByMethod.toolsList,
    guarded(profile, 'tools/list', (request) => {
      paramsOf(ListToolsRequestSchema, 'tools/list', request);
      return { tools: profile.tools.map((t) => t.contract.listing), _meta: privateCacheMeta() };
    }),
  );
  const callTool = guarded(profile, 'tools/call', async (request: unknown) => {
    const { params } = paramsOf(CallToolRequestSchema, 'tools/call', request);
    const entry = tools.get(params.name);
    if (entry === undefined) throw new JsonRpcFault(RpcCode.MethodNotFound, 'unknown tool');
    return runToolCall(entry.contract, params.arguments, entry.handler, {
      maxArgumentBytes: profile.maxArgumentBytes,
      ...(profile.onFault === undefined ? {} : { onFault: profile.onFault }),
      ...(profile.observeToolCall === undefined ? {} : { observe: profile.observeToolCall }),
    });
  });
  // Server#setRequestHandler re-parses tools/call with the SDK schema before our handler runs (and answers a
  // malformed call with the validator's text); the Protocol method registers the handler as is.
  Protocol.prototype.setRequestHandler.call(server, ByMethod.toolsCall, callTool);
}

function registerResources(server: Server, profile: McpProfile): void {
  const { resources } = profile;
  if (resources === undefined) return;
  server.setRequestHandler(
    ByMethod.resourcesList,
    guarded(profile, 'resources/list', async (request) => {
      paramsOf(ListResourcesRequestSchema, 'resources/list', request);
      return { resources: await resources.list(), _meta: privateCacheMeta() };
    }),
  );
  server.setRequestHandler(
    ByMethod.templatesList,
    guarded(profile, 'resources/templates/list', (request) => {
      paramsOf(ListResourceTemplatesRequestSchema, 'resources/templates/list', request);
      return { resourceTemplates: resources.templates(), _meta: privateCacheMeta() };
    }),
  );
  server.setRequestHandler(
    ByMethod.resourcesRead,
    guarded(profile, 'resources/read', (request) => {
      const { params } = paramsOf(ReadResourceRequestSchema, 'resources/read', request);
      return resources.read(params.uri);
    }),
  );
}

function registerPrompts(server: Server, profile: McpProfile): void {
  const { prompts } = profile;
  if (prompts === undefined) return;
  server.setRequestHandler(
    ByMethod.promptsList,
    guarded(profile, 'prompts/list', (request) => {
      paramsOf(ListPromptsRequestSchema, 'prompts/list', request);
      return { prompts: prompts.list(), _meta: privateCacheMeta() };
    }),
  );
  server.setRequestHandler(
    ByMethod.promptsGet,
    guarded(profile, 'prompts/get', (request) => {
      const { params } = paramsOf(GetPromptRequestSchema, 'prompts/get', request);
      return prompts.get(params.name);
    }),
  );
}

/**
 * The SDK registers `initialize` itself and answers malformed params with -32603 and the validator's text. Where the
 * SDK's own initialize logic is reachable (1.32: `_oninitialize`), put our params check in front of it; otherwise keep
 * the SDK's handler as it is.
 */
function checkInitializeParams(server: Server): void {
  const sdk = server as unknown as { _oninitialize?: (request: unknown) => Promise<InitializeResult> };
  const initialize = sdk._oninitialize;
  if (typeof initialize !== 'function') return;
  server.setRequestHandler(InitializeRequestSchema.pick({ method: true }).loose(), (request) =>
    initialize.call(server, paramsOf(InitializeRequestSchema, 'initialize', request)),
  );
}

/**
 * The SDK's JSON Schema validator (used only for elicitation, which we never send), made once: by default every
 * `Server` builds its own Ajv instance, which cost ~17% of the CPU of a stateless HTTP call that builds a server per
 * request. Our own contracts are compiled once per profile (tool-contract.ts).
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** Builds a server for one connection (stdio) or one HTTP request (stateless Streamable HTTP). */
export function createMcpServer(profile: McpProfile): Server {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(
    { name: SERVER_NAME, title: 'Rimthan', version: packageVersion() },
    {
      jsonSchemaValidator: sharedValidator,
      capabilities: capabilitiesOf(profile),
      ...(profile.instructions === undefined ? {} : { instructions: profile.instructions }),
    },
  );
  checkInitializeParams(server);
  registerTools(server, profile);
  registerResources(server, profile);
  registerPrompts(server, profile);
  return server;
}
