/**
 * Raw MCP 2026-07-28 requests, for what the SDK clients do not send (the Tasks extension's methods, task-backed tool
 * calls) and for refusals on the wire: one Streamable HTTP POST, or JSON-RPC lines to a spawned `rimthan serve` over
 * stdio. Each request carries the revision's `_meta` envelope with the given client capabilities.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../../../src/core/index.js';
import { MODERN_REVISION } from './modern-client.js';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));
/** Methods whose `Mcp-Name` header mirrors a params field (the revision's Streamable HTTP binding). */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** `params` with the 2026-07-28 `_meta` envelope declaring `capabilities`. */
export function enveloped(params: JsonObject, capabilities: JsonObject): JsonObject {
  return {
    ...params,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      'io.modelcontextprotocol/clientInfo': { name: 'rimthan-wire-test', version: '1.0.0' },
    },
  };
}

let nextId = 1;

/** One 2026-07-28 request over Streamable HTTP: the HTTP status and the JSON-RPC response. */
export async function modernPost(
  url: string,
  token: string,
  method: string,
  params: JsonObject,
  capabilities: JsonObject = {},
): Promise<{ status: number; response: JsonObject }> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    Authorization: `Bearer ${token}`,
    'Mcp-Protocol-Version': MODERN_REVISION,
    'Mcp-Method': method,
  };
  const field = NAME_FIELD[method];
  const name = field === undefined ? undefined : params[field];
  if (typeof name === 'string') headers['Mcp-Name'] = name;
  const body = { jsonrpc: '2.0', id: nextId++, method, params: enveloped(params, capabilities) };
  const reply = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: reply.status, response: (await reply.json()) as JsonObject };
}

export interface RawStdio {
  /** Sends one 2026-07-28 request and resolves with its JSON-RPC response. */
  request(method: string, params: JsonObject, capabilities?: JsonObject): Promise<JsonObject>;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `rimthan serve ARGS` (stdio) and speaks raw JSON-RPC lines to it. */
export function rawStdio(args: readonly string[], env: Readonly<Record<string, string>>): RawStdio {
  const child = spawn(process.execPath, [MAIN, 'serve', ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const waiting = new Map<number, (response: JsonObject) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as JsonObject;
    const id = message['id'];
    if (typeof id === 'number') waiting.get(id)?.(message);
    if (typeof id === 'number') waiting.delete(id);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    request(method, params, capabilities = {}) {
      const id = nextId++;
      const reply = new Promise<JsonObject>((resolve, reject) => {
        waiting.set(id, resolve);
        exited.then(() => reject(new Error(`rimthan serve exited before answering ${method}: ${err}`)), reject);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: enveloped(params, capabilities) })}\n`);
      return reply;
    },
    stderr: () => err,
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
