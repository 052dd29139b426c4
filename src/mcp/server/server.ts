/**
 * `createMcpServer(profile)`: one low-level v2 SDK `Server` (raw JSON Schema 2020-12 on the wire, no zod) answering
 * tools, resources and prompts from a profile, for both protocol eras from the same handlers: MCP 2026-07-28
 * (`server/discover`, the per-request `_meta` envelope, `ttlMs`/`cacheScope` on cacheable results) and the 2025-era
 * revisions the SDK still serves (2025-11-25 back to 2024-10-07, `initialize`). The serving entries (stdio.ts, http.ts)
 * decide the era; nothing here branches on it except {@link cacheFields}.
 *
 * Listings: tools in the profile's fixed order (frozen here, the same on every call and in both eras). On 2026 traffic
 * every cacheable result carries the revision's own `cacheScope: "private"` and a `ttlMs`; on 2025 traffic, which has
 * no such fields, the result carries the `dev.rimthan/cache-scope` marker instead. Items keep the marker in both.
 *
 * Error discipline: every handler is guarded, so anything but a JsonRpcFault leaves as a bare "internal error" (the
 * SDK would otherwise put the exception's message on the wire). Params are checked here, before the SDK's own parse
 * (which answers with a validator dump): a malformed request is -32602 with a fixed message naming only the method.
 * Resource not found is thrown as -32002 with `data.uri`; the SDK sends it as -32602 on 2026 traffic (that revision's
 * code) and the server's connect hook (legacy-codes.ts) restores -32002 for 2025-era clients.
 *
 * Seams for what comes next (keep them this way):
 * - Multi-round tool calls: a ToolEntry's `multiRound` handler answers instead of `handler` when a 2026-07-28 request's
 *   client declared form elicitation ({@link declaresFormElicitation}); the round (echoed `requestState`, the form's
 *   answer, the caller) is read here, the state is verified by the handler's own codec (core/request-state.ts), and a
 *   question it asks leaves runToolCall as the SDK's `input_required` result.
 * - Task-backed tool calls: a ToolEntry's `task` handler answers instead (and may return a task, `resultType: "task"`)
 *   when the request's client declared that handler's extension (`io.modelcontextprotocol/tasks`) on this request.
 * - Extra methods (e.g. the tasks extension's `tasks/get`, `tasks/update`, `tasks/cancel`, the skills extension's
 *   `skills/list`, `skills/get`): a profile lists {@link ServerExtension}s; each adds its capabilities (entries of
 *   `extensions` are merged) and registers its handlers with a closed params check (closed-params.ts) through
 *   {@link guardedHandler}, which gives it the same error discipline as the built-in methods.
 * - Extra resources: a profile's ResourceProvider (profile.ts) lists and reads them; nothing here changes.
 */
import { CLIENT_CAPABILITIES_META_KEY, inputResponse, isSpecType, Server } from '@modelcontextprotocol/server';
import type {
  JSONRPCRequest,
  Result,
  ServerCapabilities,
  ServerContext,
  ServerOptions,
  SpecTypeName,
  Transport,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { isJsonObject } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { keepLegacyResourceCodes } from './legacy-codes.js';
import type { McpProfile, ToolEntry, ToolRound } from './profile.js';
import { errorEnd, requestFacts, resultEnd } from './request-trace.js';
import type { McpRequestTracer, ServedNames } from './request-trace.js';
import { ASK_INPUT_KEY, runToolCall } from './tool-call.js';
import type { CreateTaskResult } from './tool-call.js';
import { packageVersion } from '../../package/index.js';
import {
  CACHE_SCOPE_META_KEY,
  internalFault,
  JsonRpcFault,
  LISTING_TTL_MS,
  privateCacheMeta,
  RpcCode,
} from './wire.js';

/** The name clients see in `serverInfo`; harnesses verify it before trusting the tools. */
export const SERVER_NAME = 'rimthan';

/** The `_meta` envelope key a 2026-07-28 request carries its protocol revision in. */
export const PROTOCOL_VERSION_ENVELOPE_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The request schema each method's params are checked against before its handler runs. */
const REQUEST_TYPES: Readonly<Record<string, SpecTypeName>> = {
  initialize: 'InitializeRequest',
  'server/discover': 'DiscoverRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
};

/** The request without its JSON-RPC framing, as the spec request schemas read it. */
function requestPart(request: JSONRPCRequest): { method: string; params?: unknown } {
  return request.params === undefined ? { method: request.method } : { method: request.method, params: request.params };
}

/**
 * The v2 low-level server with our params check in front of every handler it wraps, the SDK's own ones
 * (`initialize`, `server/discover`) included. `_wrapHandler` is the SDK's documented hook for this.
 */
export class RimthanServer extends Server {
  /** Told about every request this server answers (set by createMcpServer; read per request, after construction). */
  tracing: { readonly tracer: McpRequestTracer; readonly served: ServedNames } | undefined;

  /** Connects as the SDK does, then keeps the 2025-era resource-not-found code on this transport (legacy-codes.ts). */
  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    keepLegacyResourceCodes(transport);
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    const type = REQUEST_TYPES[method];
    const checked: typeof wrapped =
      type === undefined
        ? wrapped
        : (request, ctx) => {
            if (!isSpecType[type](requestPart(request))) {
              return Promise.reject(new JsonRpcFault(RpcCode.InvalidParams, `invalid params for ${method}`));
            }
            return wrapped(request, ctx);
          };
    return (request, ctx) => {
      const tracing = this.tracing;
      if (tracing === undefined) return checked(request, ctx);
      const end = tracing.tracer(
        requestFacts(request, ctx, tracing.served, {
          envelopeKey: PROTOCOL_VERSION_ENVELOPE_KEY,
          negotiated: this.getNegotiatedProtocolVersion(),
        }),
      );
      return checked(request, ctx).then(
        (result) => {
          end(resultEnd(result));
          return result;
        },
        (error: unknown) => {
          end(errorEnd(error));
          throw error;
        },
      );
    };
  }
}

/** True when the request being answered came over MCP 2026-07-28 (or later): it carries the `_meta` envelope. */
export function isModernRequest(ctx: ServerContext): boolean {
  const envelope: Readonly<Record<string, unknown>> | undefined = ctx.mcpReq.envelope;
  return envelope?.[PROTOCOL_VERSION_ENVELOPE_KEY] !== undefined;
}

/**
 * The era's cache statement for a cacheable result: `cacheScope` + `ttlMs` on 2026 traffic, the private-cache
 * `_meta` marker on 2025 traffic. Other `_meta` keys of the result are kept.
 */
export function cacheFields<R extends object>(ctx: ServerContext, result: R, ttlMs: number): R {
  const { _meta: meta, ...rest } = result as { _meta?: Record<string, unknown> };
  if (!isModernRequest(ctx)) return { ...rest, _meta: { ...meta, ...privateCacheMeta() } } as R;
  const { [CACHE_SCOPE_META_KEY]: _marker, ...others } = meta ?? {};
  const fields = { ...rest, ttlMs, cacheScope: 'private' };
  return (Object.keys(others).length === 0 ? fields : { ...fields, _meta: others }) as R;
}

/** Wraps a handler so that anything but a JsonRpcFault leaves as a bare "internal error". */
export function guardedHandler<A extends unknown[], R>(
  profile: Pick<McpProfile, 'onFault'>,
  where: string,
  fn: (...args: A) => Promise<R> | R,
): (...args: A) => Promise<R> {
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

/** The client capabilities a 2026-07-28 request declared in its `_meta` envelope (undefined on 2025 traffic). */
function declaredCapabilities(ctx: ServerContext): Readonly<Record<string, unknown>> | undefined {
  if (!isModernRequest(ctx)) return undefined;
  const envelope: Readonly<Record<string, unknown>> | undefined = ctx.mcpReq.envelope;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return isJsonObject(capabilities) ? capabilities : undefined;
}

/** True when a 2026-07-28 request's client declared form elicitation (`elicitation: {}` means form, per the spec). */
export function declaresFormElicitation(ctx: ServerContext): boolean {
  const elicitation = declaredCapabilities(ctx)?.['elicitation'];
  if (!isJsonObject(elicitation)) return false;
  return elicitation['form'] !== undefined || elicitation['url'] === undefined;
}

/** True when a 2026-07-28 request's client declared the extension `id` (`extensions: {[id]: {...}}`) on this request. */
export function declaresExtension(ctx: ServerContext, id: string): boolean {
  const extensions = declaredCapabilities(ctx)?.['extensions'];
  return isJsonObject(extensions) && Object.hasOwn(extensions, id) && isJsonObject(extensions[id]);
}

/** This round of a multi-round call, read from the request: echoed state, the form's answer, the caller. */
function roundOf(ctx: ServerContext, principalId: string | undefined): ToolRound {
  const state: unknown = ctx.mcpReq.requestState();
  const view = inputResponse(ctx.mcpReq.inputResponses, ASK_INPUT_KEY);
  const answer = view.kind === 'elicit' ? { action: view.action, content: view.content } : undefined;
  return { requestState: typeof state === 'string' ? state : undefined, answer, principalId };
}

function capabilitiesOf(profile: McpProfile): ServerCapabilities {
  let capabilities: ServerCapabilities = { tools: { listChanged: false } };
  if (profile.resources !== undefined) capabilities.resources = { listChanged: false, subscribe: false };
  if (profile.prompts !== undefined) capabilities.prompts = { listChanged: false };
  for (const extension of profile.extensions ?? []) {
    const added = extension.capabilities;
    if (added === undefined) continue;
    // Each extension adds its own entry under `extensions`; the map is merged, not replaced.
    const extensions = { ...capabilities.extensions, ...added.extensions };
    capabilities = { ...capabilities, ...added };
    if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
  }
  return capabilities;
}

function registerTools(server: RimthanServer, profile: McpProfile, caller: ServerCaller): void {
  const order: readonly ToolEntry[] = Object.freeze([...profile.tools]);
  const tools = new Map<string, ToolEntry>(order.map((t) => [t.contract.name, t]));
  const listing = order.map((t) => t.contract.listing);
  server.setRequestHandler(
    'tools/list',
    guardedHandler(profile, 'tools/list', (_request, ctx: ServerContext) =>
      cacheFields(ctx, { tools: listing }, LISTING_TTL_MS.static),
    ),
  );
  server.setRequestHandler(
    'tools/call',
    guardedHandler(profile, 'tools/call', async (request, ctx: ServerContext) => {
      const { params } = request;
      const entry = tools.get(params.name);
      if (entry === undefined) throw new JsonRpcFault(RpcCode.MethodNotFound, 'unknown tool');
      const { multiRound, task } = entry;
      const handler =
        task !== undefined && declaresExtension(ctx, task.extension)
          ? task.handler
          : multiRound !== undefined && declaresFormElicitation(ctx)
            ? (args: JsonObject) => multiRound(args, roundOf(ctx, caller.principalId))
            : entry.handler;
      const result = await runToolCall(entry.contract, params.arguments, handler, {
        maxArgumentBytes: profile.maxArgumentBytes,
        ...(profile.onFault === undefined ? {} : { onFault: profile.onFault }),
        ...(profile.observeToolCall === undefined ? {} : { observe: profile.observeToolCall }),
      });
      // The SDK types tools/call results without the Tasks extension's `resultType: "task"`; its 2026 encoder passes
      // any resultType of tools/call through (and only task-declaring clients ever get one).
      return result as Exclude<typeof result, CreateTaskResult>;
    }),
  );
}

function registerResources(server: RimthanServer, profile: McpProfile): void {
  const { resources } = profile;
  if (resources === undefined) return;
  server.setRequestHandler(
    'resources/list',
    guardedHandler(profile, 'resources/list', async (_request, ctx: ServerContext) =>
      cacheFields(ctx, { resources: await resources.list() }, LISTING_TTL_MS.release),
    ),
  );
  server.setRequestHandler(
    'resources/templates/list',
    guardedHandler(profile, 'resources/templates/list', (_request, ctx: ServerContext) =>
      cacheFields(ctx, { resourceTemplates: resources.templates() }, LISTING_TTL_MS.static),
    ),
  );
  server.setRequestHandler(
    'resources/read',
    guardedHandler(profile, 'resources/read', async (request, ctx: ServerContext) =>
      cacheFields(ctx, await resources.read(request.params.uri), LISTING_TTL_MS.release),
    ),
  );
}

function registerPrompts(server: RimthanServer, profile: McpProfile): void {
  const { prompts } = profile;
  if (prompts === undefined) return;
  server.setRequestHandler(
    'prompts/list',
    guardedHandler(profile, 'prompts/list', (_request, ctx: ServerContext) =>
      cacheFields(ctx, { prompts: prompts.list() }, LISTING_TTL_MS.static),
    ),
  );
  server.setRequestHandler(
    'prompts/get',
    guardedHandler(profile, 'prompts/get', (request) => prompts.get(request.params.name)),
  );
}

/**
 * The SDK's JSON Schema validator (used only for elicitation answers), made once: by default every `Server` builds its
 * own, a real cost for stateless HTTP, which builds a server per request. Our own contracts are compiled once per
 * profile (tool-contract.ts).
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** The tool and prompt names a profile serves (made once per profile: a server is built per HTTP request). */
const servedCache = new WeakMap<McpProfile, ServedNames>();
function servedNames(profile: McpProfile): ServedNames {
  let served = servedCache.get(profile);
  if (served === undefined) {
    served = {
      tools: new Set(profile.tools.map((t) => t.contract.name)),
      prompts: new Set((profile.prompts?.list() ?? []).map((p) => p.name)),
    };
    servedCache.set(profile, served);
  }
  return served;
}

/** Who the server answers: the authenticated principal of an HTTP request; nobody on stdio. */
export interface ServerCaller {
  readonly principalId?: string;
}

/** Builds a server for one connection (stdio) or one HTTP request (stateless, either era). */
export function createMcpServer(profile: McpProfile, caller: ServerCaller = {}): RimthanServer {
  const extensions = profile.extensions ?? [];
  sharedValidator ??= new AjvJsonSchemaValidator();
  const options: ServerOptions = {
    jsonSchemaValidator: sharedValidator,
    capabilities: capabilitiesOf(profile),
    ...(profile.instructions === undefined ? {} : { instructions: profile.instructions }),
  };
  for (const extension of extensions) Object.assign(options, extension.options);
  const server = new RimthanServer({ name: SERVER_NAME, title: 'Rimthan', version: packageVersion() }, options);
  if (profile.traceRequest !== undefined)
    server.tracing = { tracer: profile.traceRequest, served: servedNames(profile) };
  registerTools(server, profile, caller);
  registerResources(server, profile);
  registerPrompts(server, profile);
  for (const extension of extensions) extension.register(server);
  return server;
}
