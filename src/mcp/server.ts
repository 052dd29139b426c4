/**
 * `createMcpServer(profile)`: one low-level SDK `Server` (raw JSON Schema 2020-12 on the wire, no zod) answering
 * tools, resources and prompts from a profile. Unknown tools are a JSON-RPC METHOD_NOT_FOUND; every listing carries the
 * private-cache `_meta` marker.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
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

/** Builds a server for one connection (stdio) or one HTTP request (stateless Streamable HTTP). */
export function createMcpServer(profile: McpProfile): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Rimthan', version: packageVersion() },
    {
      capabilities: capabilitiesOf(profile),
      ...(profile.instructions === undefined ? {} : { instructions: profile.instructions }),
    },
  );
  const tools = new Map<string, ToolEntry>(profile.tools.map((t) => [t.contract.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: profile.tools.map((t) => t.contract.listing),
    _meta: privateCacheMeta(),
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    guarded(profile, 'tools/call', async (request) => {
      const entry = tools.get(request.params.name);
      if (entry === undefined) throw new JsonRpcFault(RpcCode.MethodNotFound, 'unknown tool');
      return runToolCall(entry.contract, request.params.arguments, entry.handler, {
        maxArgumentBytes: profile.maxArgumentBytes,
        ...(profile.onFault === undefined ? {} : { onFault: profile.onFault }),
      });
    }),
  );

  const { resources, prompts } = profile;
  if (resources !== undefined) {
    server.setRequestHandler(
      ListResourcesRequestSchema,
      guarded(profile, 'resources/list', async () => ({
        resources: await resources.list(),
        _meta: privateCacheMeta(),
      })),
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: resources.templates(),
      _meta: privateCacheMeta(),
    }));
    server.setRequestHandler(
      ReadResourceRequestSchema,
      guarded(profile, 'resources/read', (request) => resources.read(request.params.uri)),
    );
  }
  if (prompts !== undefined) {
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.list(), _meta: privateCacheMeta() }));
    server.setRequestHandler(
      GetPromptRequestSchema,
      guarded(profile, 'prompts/get', (request) => prompts.get(request.params.name)),
    );
  }
  return server;
}
