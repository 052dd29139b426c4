/**
 * Stateless Streamable HTTP (spec: checkpoints-data-perimeter.md "Data perimeter": bounded requests, private/no-store
 * responses; MCP transport rules: POST only, Origin check, bearer auth).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpServer, startHttpTransport } from '../../../src/mcp/index.js';
import type { HttpEndpoint } from '../../../src/mcp/index.js';
import { NEW_RELEASE, tempReleaseStore, workflowProfile } from '../support/connect.js';

const TOKEN = 'test-bearer-token-0123456789abcdef';
const CAP = 8 * 1024;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close the socket right after a 413; the reply has been read by then.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const AUTH = { Authorization: `Bearer ${TOKEN}` };

function assertJsonError(reply: Reply, status: number): void {
  assert.equal(reply.status, status);
  assert.equal(reply.headers['cache-control'], 'private, no-store');
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  const body = JSON.parse(reply.body) as { error?: { code?: unknown; message?: unknown } };
  assert.equal(typeof body.error?.code, 'number');
  assert.doesNotMatch(reply.body, /<html|at [^ ]+ \(|\/work\//i, 'no HTML, stack or paths');
}

describe('Streamable HTTP transport', () => {
  let endpoint: HttpEndpoint;
  let releases: ReturnType<typeof tempReleaseStore>;

  before(async () => {
    releases = tempReleaseStore(NEW_RELEASE);
    const profile = workflowProfile(releases.store);
    endpoint = await startHttpTransport({
      port: 0,
      maxRequestBytes: CAP,
      bearerTokens: [TOKEN],
      serverFor: () => createMcpServer(profile),
    });
  });
  after(async () => {
    await endpoint.close();
    releases.cleanup();
  });

  test('answers GET and DELETE on /mcp with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const reply = await send(endpoint.url, { method, headers: AUTH });
      assertJsonError(reply, 405);
      assert.equal(reply.headers['allow'], 'POST');
    }
  });

  test('refuses an oversized body with a JSON 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { pad: 'x'.repeat(CAP) } });
    assertJsonError(await send(endpoint.url, { headers: { ...MCP_HEADERS, ...AUTH }, body: big }), 413);
    const chunked = await send(endpoint.url, {
      headers: { ...MCP_HEADERS, ...AUTH, 'Transfer-Encoding': 'chunked' },
      body: Buffer.from(big),
    });
    assertJsonError(chunked, 413);
  });

  test('refuses a present Origin that is not its own (another port included) and a foreign Host with 403', async () => {
    const origin = await send(endpoint.url, {
      headers: { ...MCP_HEADERS, ...AUTH, Origin: 'https://evil.example' },
      body: INITIALIZE,
    });
    assertJsonError(origin, 403);
    const host = await send(endpoint.url, {
      headers: { ...MCP_HEADERS, ...AUTH, Host: 'evil.example' },
      body: INITIALIZE,
    });
    assertJsonError(host, 403);
    const otherPort = await send(endpoint.url, {
      headers: { ...MCP_HEADERS, ...AUTH, Origin: 'http://localhost:5173' },
      body: INITIALIZE,
    });
    assertJsonError(otherPort, 403);
    const own = await send(endpoint.url, {
      headers: { ...MCP_HEADERS, ...AUTH, Origin: new URL(endpoint.url).origin },
      body: INITIALIZE,
    });
    assert.equal(own.status, 200);
  });

  test('requires the bearer token when one is configured: 401 with WWW-Authenticate', async () => {
    const missing = await send(endpoint.url, { headers: MCP_HEADERS, body: INITIALIZE });
    assertJsonError(missing, 401);
    assert.match(String(missing.headers['www-authenticate']), /^Bearer /);
    const wrong = await send(endpoint.url, {
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${TOKEN}x` },
      body: INITIALIZE,
    });
    assertJsonError(wrong, 401);
    assert.match(String(wrong.headers['www-authenticate']), /invalid_token/);
  });

  test('serves MCP over POST with Cache-Control: private, no-store', async () => {
    const reply = await send(endpoint.url, { headers: { ...MCP_HEADERS, ...AUTH }, body: INITIALIZE });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['cache-control'], 'private, no-store');
    const body = JSON.parse(reply.body) as { result: { serverInfo: { name: string } } };
    assert.equal(body.result.serverInfo.name, 'rimthan');
  });

  test('an SDK client lists the four tools over HTTP with the token', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: AUTH } });
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.equal(tools.length, 4);
    const prompt = await client.getPrompt({ name: 'rimthan.start_workflow' });
    assert.equal(prompt.messages.length, 1);
    await client.close();
  });

  test('a body that is not one strict JSON value is a JSON 400 parse error', async () => {
    const duplicate = '{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"ping"}';
    assertJsonError(await send(endpoint.url, { headers: { ...MCP_HEADERS, ...AUTH }, body: duplicate }), 400);
  });

  test('the caller is a stable pseudonym of its bearer token, or anonymous without auth', async () => {
    const seen: string[] = [];
    const profile = workflowProfile(releases.store);
    const serverFor = (principal: { id: string }) => {
      seen.push(principal.id);
      return createMcpServer(profile);
    };
    const open = await startHttpTransport({ port: 0, maxRequestBytes: CAP, serverFor });
    const closed = await startHttpTransport({ port: 0, maxRequestBytes: CAP, bearerTokens: [TOKEN], serverFor });
    try {
      await send(open.url, { headers: MCP_HEADERS, body: INITIALIZE });
      await send(closed.url, { headers: { ...MCP_HEADERS, ...AUTH }, body: INITIALIZE });
      await send(closed.url, { headers: { ...MCP_HEADERS, ...AUTH }, body: INITIALIZE });
    } finally {
      await open.close();
      await closed.close();
    }
    assert.equal(seen[0], 'anonymous');
    assert.match(seen[1] ?? '', /^bearer-[0-9a-f]{32}$/);
    assert.equal(seen[2], seen[1]);
    assert.ok(!(seen[1] ?? '').includes(TOKEN));
  });
});
