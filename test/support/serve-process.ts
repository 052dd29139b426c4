/**
 * Real `rimthan serve` processes for tests: spawned from the built executable, their URLs read from stderr
 * (`listening on URL`, `admin listening on URL`), stopped with SIGTERM and awaited; or launched over stdio as an MCP
 * client's child. Connecting an MCP client and calling the Admin API are here too, so every test drives them the same
 * way.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly adminUrl: string | undefined;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `rimthan serve ARGS` and resolves once it listens (and its admin listener, when asked for). */
export async function spawnServe(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: { readonly cwd?: string } = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [MAIN, 'serve', ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  const wantsAdmin = args.includes('--admin-port');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urls = await new Promise<{ url: string; admin: string | undefined }>((resolve, reject) => {
    const check = (): void => {
      const url = /profile listening on ([^\s"]+)/.exec(stderr)?.[1];
      const admin = /admin listening on ([^\s"]+)/.exec(stderr)?.[1];
      if (url !== undefined && (!wantsAdmin || admin !== undefined)) resolve({ url, admin });
    };
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      check();
    });
    child.once('exit', (code) =>
      reject(new Error(`rimthan serve exited ${String(code)} before listening:\n${stderr}`)),
    );
  });
  return {
    child,
    url: urls.url,
    adminUrl: urls.admin,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An MCP client over Streamable HTTP with a bearer token. */
export async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'rimthan-replica-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** One Admin API call: status and JSON. */
export async function adminCall(
  adminUrl: string,
  token: string,
  method: string,
  path: string,
  body?: Uint8Array | object,
): Promise<{ status: number; value: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Connection: 'close' };
  let payload: Uint8Array | string | undefined;
  if (body instanceof Uint8Array) payload = body;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${adminUrl}${path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  const value = (text.startsWith('{') ? JSON.parse(text) : { text }) as Record<string, unknown>;
  return { status: response.status, value, headers: response.headers };
}

/** Polls `probe` (with a pause between tries) until it returns true; a generous guard stops a hang. */
export async function eventually(what: string, probe: () => Promise<boolean>, guardMs = 120_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (await probe()) return;
    if (Date.now() - start > guardMs) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A `rimthan serve ARGS` process over stdio with an MCP client connected to it, and what it wrote to stderr. */
export interface StdioServe {
  readonly client: Client;
  stderr(): string;
}

/** Launches `rimthan serve ARGS` as the client's stdio child (cwd and env as given, PATH kept) and connects. */
export async function stdioServe(
  args: readonly string[],
  opts: { cwd?: string; env?: Readonly<Record<string, string>>; name?: string } = {},
): Promise<StdioServe> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'serve', ...args],
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
    env: { PATH: process.env['PATH'] ?? '', ...opts.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: opts.name ?? 'rimthan-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}
