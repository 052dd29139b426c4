/**
 * The v2 SDK client pinned to MCP 2026-07-28 (no `initialize`, `server/discover`, the per-request `_meta` envelope),
 * over stdio (a spawned `rimthan serve`) or Streamable HTTP, and a tool caller for the participant harness.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { JsonObject } from '../../../src/core/index.js';
import type { CallOutcome } from './participant.js';
import { valueOf } from './connect.js';

export const MODERN_REVISION = '2026-07-28';
const MAIN = fileURLToPath(new URL('../../../src/cli/main.js', import.meta.url));

function modernClient(name: string): Client {
  return new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN_REVISION } } });
}

export interface ModernStdio {
  readonly client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `rimthan serve ARGS` and connects over 2026-07-28. */
export async function modernStdio(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<ModernStdio> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', ...args],
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const client = modernClient('rimthan-modern-stdio');
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** Connects to a Streamable HTTP endpoint over 2026-07-28, with a bearer token when given. */
export async function modernHttp(url: string, token?: string): Promise<Client> {
  const client = modernClient('rimthan-modern-http');
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Calls a tool: whether it was a tool error, and its JSON value. */
export async function modernCall(client: Client, name: string, args: JsonObject): Promise<CallOutcome> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, value: valueOf(result) };
}

/**
 * A 2026-07-28 client that can show the person a form (it declares form elicitation): `answer` plays the person, and
 * every form it was asked is pushed to `asked`. Connect it yourself.
 */
export function elicitingClient(
  answer: (form: ElicitRequestFormParams) => ElicitResult,
  asked: ElicitRequestFormParams[],
): Client {
  const client = new Client(
    { name: 'rimthan-eliciting', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN_REVISION } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    const form = request.params as ElicitRequestFormParams;
    asked.push(form);
    return Promise.resolve(answer(form));
  });
  return client;
}
