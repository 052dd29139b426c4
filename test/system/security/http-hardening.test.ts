/**
 * Adversarial tests of the Streamable HTTP endpoint (spec: checkpoints-data-perimeter.md "Data perimeter": bounded
 * requests, private/no-store on every response, no access logging; MCP transport rules: Host/Origin, bearer auth).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMcpServer, startHttpTransport } from '../../../src/mcp/index.js';
import type { HttpEndpoint } from '../../../src/mcp/index.js';
import { NEW_RELEASE, tempReleaseStore, workflowProfile } from '../../mcp/support/connect.js';
import { assertSafeJsonError, exchange, MCP_HEADERS, parseReply, rawExchange, rpc } from './support.js';

const TOKEN_A = 'token-a-0123456789abcdef0123456789';
const TOKEN_B = 'token-b-0123456789abcdef0123456789';
const CAP = 16 * 1024;
const AUTH = { Authorization: `Bearer ${TOKEN_A}` };
const PING = rpc('ping');

describe('HTTP endpoint under attack', () => {
  let releases: ReturnType<typeof tempReleaseStore>;
  let endpoint: HttpEndpoint;
  let open: HttpEndpoint;

  before(async () => {
    releases = tempReleaseStore(NEW_RELEASE);
    const profile = workflowProfile(releases.store);
    endpoint = await startHttpTransport({
      port: 0,
      maxRequestBytes: CAP,
      bearerTokens: [TOKEN_A, TOKEN_B],
      serverFor: () => createMcpServer(profile),
    });
    open = await startHttpTransport({ port: 0, maxRequestBytes: CAP, serverFor: () => createMcpServer(profile) });
  });
  after(async () => {
    await endpoint.close();
    await open.close();
    releases.cleanup();
  });

  test('a malformed request line gets a JSON 400 with Cache-Control: private, no-store', async () => {
    const reply = await rawExchange(endpoint.url, ['NOT-HTTP\r\n\r\n']);
    assertSafeJsonError(reply, 400);
  });

  test('an HTTP/1.1 request without Host is refused with a private JSON error', async () => {
    const reply = await rawExchange(endpoint.url, [
      `POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${PING.length}\r\n\r\n${PING}`,
    ]);
    assert.ok(reply.status === 400 || reply.status === 403, String(reply.status));
    assertSafeJsonError(reply, reply.status);
  });

  test('oversized headers get a JSON 431 with Cache-Control: private, no-store', async () => {
    const reply = await rawExchange(endpoint.url, [
      `POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${'p'.repeat(64 * 1024)}\r\n\r\n`,
    ]);
    assertSafeJsonError(reply, 431);
  });

  test('every refusal is private: 404, 405, 401, 403, 413, 400', async () => {
    assertSafeJsonError(await exchange(endpoint.url.replace('/mcp', '/other'), PING, AUTH), 404);
    assertSafeJsonError(await exchange(endpoint.url.replace('/mcp', '/'), '', AUTH, 'GET'), 404);
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
      const reply = await exchange(endpoint.url, '', AUTH, method);
      assertSafeJsonError(reply, 405);
      assert.equal(reply.headers['allow'], 'POST');
    }
    assertSafeJsonError(await exchange(endpoint.url, PING), 401);
    assertSafeJsonError(await exchange(endpoint.url, PING, { ...AUTH, Host: 'evil.example' }), 403);
    assertSafeJsonError(await exchange(endpoint.url, 'x'.repeat(CAP + 1), AUTH), 413);
    assertSafeJsonError(await exchange(endpoint.url, '{"a":', AUTH), 400);
  });

  test('the server bounds slow clients: headers, whole-request and keep-alive timeouts are set', () => {
    const s = endpoint.server;
    assert.ok(s.headersTimeout > 0 && s.headersTimeout <= 15_000, `headersTimeout ${s.headersTimeout}`);
    assert.ok(s.requestTimeout > 0 && s.requestTimeout <= 60_000, `requestTimeout ${s.requestTimeout}`);
    assert.ok(s.keepAliveTimeout > 0 && s.keepAliveTimeout <= 10_000, `keepAliveTimeout ${s.keepAliveTimeout}`);
    assert.ok(s.headersTimeout <= s.requestTimeout);
  });

  test('a client that never finishes its headers gets a private 408 and is disconnected', async () => {
    const slow = await startHttpTransport({
      port: 0,
      maxRequestBytes: CAP,
      timeouts: { headersMs: 150, requestMs: 300, checkIntervalMs: 50 },
      serverFor: () => assert.fail('no MCP server for an unfinished request'),
    });
    try {
      const reply = await rawExchange(slow.url, ['POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n']);
      assertSafeJsonError(reply, 408);
    } finally {
      await slow.close();
    }
  });

  test('the body cap is enforced while streaming: 413 arrives before a chunked body ends', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: ${new URL(endpoint.url).host}\r\nAuthorization: Bearer ${TOKEN_A}\r\nContent-Type: application/json\r\nAccept: ${MCP_HEADERS['Accept'] ?? ''}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = 'x'.repeat(4096);
    const chunks = [head];
    for (let i = 0; i < 8; i++) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    // No terminating 0-chunk: a server that buffers to the end would never answer (the test would time out).
    const reply = await rawExchange(endpoint.url, chunks);
    assertSafeJsonError(reply, 413);
    assert.equal(reply.headers['connection'], 'close');
  });

  test('a declared Content-Length over the cap is refused before the body is read', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: ${new URL(endpoint.url).host}\r\nAuthorization: Bearer ${TOKEN_A}\r\nContent-Type: application/json\r\nContent-Length: ${CAP * 100}\r\n\r\n`;
    assertSafeJsonError(await rawExchange(endpoint.url, [head, '{']), 413);
  });

  test('Host checks: the loopback names with the listening port are accepted, anything else is refused', async () => {
    const port = new URL(endpoint.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      const reply = await exchange(endpoint.url, PING, { ...AUTH, Host: host });
      assert.equal(reply.status, 200, `Host ${host}`);
    }
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      'localhost',
      '127.0.0.1:1',
      `localhost:${Number(port) + 1}`,
      '[::1]',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '[::1]x',
      '[::1]:80x',
      'localhost:',
      'localhost:99999999',
      'localhost:80:80',
      '[::2]',
      'user@localhost',
      '',
    ]) {
      const reply = await exchange(endpoint.url, PING, { ...AUTH, Host: host });
      assert.ok(reply.status === 403 || reply.status === 400, `Host ${JSON.stringify(host)}: ${reply.status}`);
      assertSafeJsonError(reply, reply.status);
    }
  });

  test('an allowed host that is not a host name is a configuration error, not silently ignored', async () => {
    for (const host of ['*.example.org', 'https://example.org', 'example.org/mcp', '']) {
      await assert.rejects(
        startHttpTransport({ port: 0, maxRequestBytes: CAP, allowedHosts: [host], serverFor: () => assert.fail() }),
        { code: 'invalid_config' },
        host,
      );
    }
  });

  test("Origin checks: a present Origin must be the endpoint's own whole origin (scheme, host, port), else 403", async () => {
    const port = new URL(endpoint.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      const reply = await exchange(endpoint.url, PING, { ...AUTH, Origin: origin });
      assert.equal(reply.status, 200, `Origin ${origin}`);
    }
    for (const origin of [
      'http://localhost:5173',
      `http://localhost:${Number(port) + 1}`,
      'http://[::1]:3000',
      'https://127.0.0.1',
      'http://localhost',
      `https://localhost:${port}`,
      'null',
      'https://evil.example',
      `http://evil.example:${port}`,
      'http://localhost.evil.example',
      `http://localhost@evil.example:${port}`,
      'http://[::2]:3000',
      'file:///etc/passwd',
      'chrome-extension://localhost',
      'http://localhost:abc',
    ]) {
      const reply = await exchange(endpoint.url, PING, { ...AUTH, Origin: origin });
      assertSafeJsonError(reply, 403);
    }
  });

  test('bearer tokens: each configured token is accepted; near misses of any length are 401 with a challenge', async () => {
    for (const token of [TOKEN_A, TOKEN_B]) {
      const reply = await exchange(endpoint.url, PING, { Authorization: `bearer ${token}` });
      assert.equal(reply.status, 200);
    }
    for (const header of [
      `Bearer ${TOKEN_A.slice(0, -1)}`,
      `Bearer ${TOKEN_A}x`,
      `Bearer ${TOKEN_A.toUpperCase()}`,
      `Basic ${Buffer.from(`u:${TOKEN_A}`).toString('base64')}`,
      'Bearer',
      'Bearer ',
      `Bearer ${'x'.repeat(5000)}`,
      `Bearer ${TOKEN_A} ${TOKEN_B}`,
    ]) {
      const reply = await exchange(endpoint.url, PING, { Authorization: header });
      assertSafeJsonError(reply, 401);
      assert.match(reply.headers['www-authenticate'] ?? '', /^Bearer realm="rimthan", error="invalid_token"$/);
    }
    const missing = await exchange(endpoint.url, PING);
    assertSafeJsonError(missing, 401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer realm="rimthan"');
  });

  test('JSON-RPC batches: empty, oversized or with repeated request ids are refused; a small batch is answered', async () => {
    const empty = assertSafeJsonError(await exchange(open.url, '[]'), 400);
    assert.equal(empty.code, -32600);
    const many = JSON.stringify(Array.from({ length: 33 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    assert.equal(assertSafeJsonError(await exchange(open.url, many), 400).code, -32600);
    const repeated = JSON.stringify([
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 7, method: 'ping' },
    ]);
    assert.equal(assertSafeJsonError(await exchange(open.url, repeated), 400).code, -32600);
    const scalar = assertSafeJsonError(await exchange(open.url, '[1, "x"]'), 400);
    assert.equal(scalar.code, -32600);
    const two = await exchange(
      open.url,
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
    );
    assert.equal(two.status, 200);
    assert.equal(two.headers['cache-control'], 'private, no-store');
    assert.deepEqual((JSON.parse(two.body) as { id: number }[]).map((r) => r.id).sort(), [1, 2]);
  });

  test('deep nesting is refused as a parse error, at any depth, without crashing the server', async () => {
    for (const depth of [65, 5_000]) {
      const body = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      assert.equal(assertSafeJsonError(await exchange(open.url, body), 400).code, -32700);
    }
    assert.equal((await exchange(open.url, PING)).status, 200, 'still serving');
  });

  test('__proto__ keys and numbers JSON cannot represent are refused before any MCP code runs', async () => {
    const proto = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rimthan.start_workflow","arguments":{"__proto__":{"workflow":"x"}}}}`;
    const escaped = proto.replace('"__proto__"', '"\\u005f_proto__"');
    const huge = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rimthan.start_workflow","arguments":{"workflow":1e400}}}`;
    for (const body of [proto, escaped, huge]) {
      const reply = await exchange(open.url, body);
      // The strict parser itself refuses these documents, so they never become a request: a parse error.
      assert.equal(assertSafeJsonError(reply, 400).code, -32700);
    }
  });

  test('an unexpected fault is a bare JSON 500: no message, stack or path on the wire, reported once', async () => {
    const faults: unknown[] = [];
    const broken = await startHttpTransport({
      port: 0,
      maxRequestBytes: CAP,
      serverFor: () => {
        throw new Error('secret-marker at /work/main/src/x.ts:1:1');
      },
      onFault: (error) => faults.push(error),
    });
    try {
      const reply = await exchange(broken.url, PING);
      const error = assertSafeJsonError(reply, 500);
      assert.equal(error.message, 'internal error');
      assert.doesNotMatch(reply.raw, /secret-marker/);
      assert.equal(faults.length, 1);
    } finally {
      await broken.close();
    }
  });

  test('nothing is written to stdout or stderr per request (no access log)', async () => {
    const marker = 'access-log-marker-7f3a';
    const written: string[] = [];
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const spy =
      (forward: typeof out) =>
      (chunk: unknown, ...rest: unknown[]): boolean => {
        written.push(String(chunk));
        return (forward as (c: unknown, ...r: unknown[]) => boolean)(chunk, ...rest);
      };
    process.stdout.write = spy(out);
    process.stderr.write = spy(err);
    try {
      await exchange(`${endpoint.url}?${marker}`, rpc('ping', undefined, marker), AUTH);
      await exchange(`${endpoint.url}?${marker}`, rpc('ping', undefined, marker), { 'User-Agent': marker });
      await exchange(endpoint.url.replace('/mcp', `/${marker}`), PING, AUTH);
      await rawExchange(endpoint.url, [`${marker}\r\n\r\n`]);
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
    assert.equal(written.filter((w) => w.includes(marker)).length, 0);
  });

  test('a response to a good request is private too', async () => {
    const reply = parseReply((await exchange(endpoint.url, rpc('tools/list'), AUTH)).raw);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['cache-control'], 'private, no-store');
  });
});
