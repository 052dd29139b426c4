/**
 * The one Host/Origin rule on every listener (issue 20, item 13), over raw HTTP against a real `rimthan serve`
 * (its MCP endpoint and its Admin API) and a real `rimthan console`, each configured as an operator would behind a
 * proxy (`--allowed-host public.example.org --allowed-origin https://app.example.org`): a foreign Host (DNS rebinding),
 * a loopback Host with another port, an Origin of another port or another host are refused with 403; the listener's own
 * loopback names with its own port, the proxy's public name and the allowed origin are served; a request without
 * Origin (curl, SDK clients) is served where a bearer token authenticates it. A fast-check property sweeps ports and
 * host names.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startConsoleCli } from '../../console/support.js';
import type { RunningConsole } from '../../console/support.js';
import { spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { rawExchange, rpc } from './support.js';
import type { RawReply } from './support.js';

const TOKEN = 'host-origin-admin-token-0123456789abcdef';
const PUBLIC = 'public.example.org';
const APP = 'https://app.example.org';
const PROXY = ['--allowed-host', PUBLIC, '--allowed-origin', APP];

/** One listener and the request that reads something on it with the bearer token. */
interface Listener {
  readonly name: string;
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly body?: string;
}

/** Sends the listener's request with `headers` (Host defaults to the listener's own address); the reply. */
function ask(listener: Listener, headers: Record<string, string>, withToken = true): Promise<RawReply> {
  const url = new URL(listener.url);
  const body = listener.body ?? '';
  const all: Record<string, string> = {
    Host: url.host,
    ...(withToken ? { Authorization: `Bearer ${TOKEN}` } : {}),
    ...(listener.body === undefined
      ? {}
      : { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }),
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...headers,
  };
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
  return rawExchange(listener.url, [
    `${listener.method} ${url.pathname} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`,
  ]);
}

describe('one Host/Origin rule on every listener', () => {
  let cwd: string;
  let serve: ServeProcess;
  let console_: RunningConsole;
  let tokens: string;
  const listeners: Listener[] = [];

  before(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'rimthan-host-origin-'));
    serve = await spawnServe(
      ['--profile', 'runs', '--transport', 'http', '--port', '0', '--admin-port', '0', ...PROXY],
      { RIMTHAN_ADMIN_BEARER_TOKEN: TOKEN },
      { cwd },
    );
    tokens = join(cwd, 'tokens');
    writeFileSync(tokens, `${TOKEN}\n`);
    console_ = await startConsoleCli(['--admin-token-file', tokens, ...PROXY]);
    listeners.push(
      { name: 'MCP endpoint', url: serve.url, method: 'POST', body: rpc('ping') },
      { name: 'Admin API', url: `${serve.adminUrl ?? ''}/readyz`, method: 'GET' },
      { name: 'console', url: `${console_.origin}/api/me`, method: 'GET' },
    );
  });
  after(async () => {
    await serve.stop();
    assert.equal(await console_.stop(), 0);
    rmSync(cwd, { recursive: true, force: true });
  });

  test('each listener serves its own loopback names with its own port, the public name and no Origin', async () => {
    for (const listener of listeners) {
      const port = new URL(listener.url).port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, PUBLIC, `${PUBLIC}:${port}`]) {
        const reply = await ask(listener, { Host: host });
        assert.equal(reply.status, 200, `${listener.name}, Host ${host}: ${reply.body}`);
      }
    }
  });

  test('each listener refuses a foreign Host (DNS rebinding) and a loopback Host with another port', async () => {
    for (const listener of listeners) {
      const port = Number(new URL(listener.url).port);
      for (const host of [
        'evil.example',
        `evil.example:${port}`,
        `localhost:${port + 1}`,
        'localhost',
        `${PUBLIC}:8443`,
      ]) {
        const reply = await ask(listener, { Host: host });
        assert.equal(reply.status, 403, `${listener.name}, Host ${host}`);
        assert.match(reply.body, /host not allowed/);
      }
    }
  });

  test('each listener serves its own whole origins, the public origin and the allowed origin', async () => {
    for (const listener of listeners) {
      const port = new URL(listener.url).port;
      for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `https://${PUBLIC}`, APP]) {
        const reply = await ask(listener, { Origin: origin });
        assert.equal(reply.status, 200, `${listener.name}, Origin ${origin}: ${reply.body}`);
      }
    }
  });

  test('each listener refuses an Origin of another port, another host or another scheme', async () => {
    for (const listener of listeners) {
      const port = Number(new URL(listener.url).port);
      for (const origin of [
        `http://localhost:${port + 1}`,
        `http://127.0.0.1:${port + 1}`,
        'http://localhost',
        'http://127.0.0.1:3000',
        `https://127.0.0.1:${port}`,
        `http://evil.example:${port}`,
        `https://${PUBLIC}:8443`,
        'https://app.example.org:444',
        'null',
      ]) {
        const reply = await ask(listener, { Origin: origin });
        assert.equal(reply.status, 403, `${listener.name}, Origin ${origin}`);
        assert.match(reply.body, /origin not allowed/);
      }
    }
  });

  test('property: any other port of a loopback name and any other host name are refused', async () => {
    const [mcp] = listeners;
    assert.ok(mcp !== undefined);
    const own = Number(new URL(mcp.url).port);
    const name = fc.constantFrom('localhost', '127.0.0.1', '[::1]');
    const otherPort = fc.integer({ min: 1, max: 65535 }).filter((p) => p !== own);
    await fc.assert(
      fc.asyncProperty(name, otherPort, async (n, p) => {
        assert.equal((await ask(mcp, { Origin: `http://${n}:${p}` })).status, 403);
        assert.equal((await ask(mcp, { Host: `${n}:${p}` })).status, 403);
      }),
      { numRuns: 40 },
    );
    const foreign = fc.domain().filter((d) => d !== PUBLIC && d !== 'localhost');
    await fc.assert(
      fc.asyncProperty(foreign, async (d) => {
        assert.equal((await ask(mcp, { Host: `${d}:${own}` })).status, 403);
        assert.equal((await ask(mcp, { Origin: `http://${d}:${own}` })).status, 403);
      }),
      { numRuns: 40 },
    );
  });
});
