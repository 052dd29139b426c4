/**
 * Hostile servers for the client-side tests: real node:http servers on loopback whose answers a test scripts. The
 * first path segment names the scenario (`http://127.0.0.1:PORT/<scenario>/...`), so one server serves every case:
 * an Admin API that answers each bad case (wrong shape, redirect, 10 MB body, deep nesting, ANSI and OSC 8 text, a
 * stalled connection), an MCP endpoint that passes the participant's identity check and then misbehaves, and a
 * rewriting proxy in front of a real `rimthan serve` that changes one answer (a hostile asset path).
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

/** The ANSI clear-screen, colour and OSC 8 hyperlink sequences (and a C1 CSI) a hostile server sends as text. */
export const ANSI = '\u001b[2J\u001b[31mred\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\\u009b0m';
export const TEN_MB = 10 * 1024 * 1024;

async function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<Listening> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
    res.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' }).end(text);
}

/** `[[[…]]]` nested `depth` deep. */
export function deeplyNested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** Streams a JSON string member of `bytes` bytes (no content-length: the client learns the size by reading). */
function hugeBody(res: ServerResponse, prefix: string, bytes: number, suffix: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(prefix);
  const chunk = 'a'.repeat(64 * 1024);
  let sent = 0;
  const pump = (): void => {
    while (sent < bytes) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(suffix);
  };
  pump();
}

/** The scenario of a request: its first path segment. */
function scenarioOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('/')[1] ?? '';
}

/** An Admin API that answers `GET <scenario>/releases` (and everything else) with the scenario's bad answer. */
export function hostileAdmin(): Promise<Listening> {
  return listen((req, res) => {
    switch (scenarioOf(req)) {
      case 'shape':
        return json(res, 200, { releases: [{ release: 5 }] });
      case 'extra':
        return json(res, 200, { releases: [], injected: 'a member the API does not document' });
      case 'redirect':
        res.writeHead(302, { location: 'http://203.0.113.9/steal-the-token' }).end();
        return;
      case 'huge':
        return hugeBody(res, '{"releases": [{"release": "', TEN_MB, '"}]}');
      case 'deep':
        return json(res, 200, deeplyNested(10_000));
      case 'html':
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>bad gateway</body></html>');
        return;
      case 'ansi-error':
        return json(res, 403, { error: { code: 'forbidden', message: `denied ${ANSI}\nrimthan: forged line` } });
      case 'ansi-list':
        return json(res, 200, {
          releases: [
            {
              release: `r${ANSI}`,
              manifest_sha256: null,
              bytes_sha256: 'a'.repeat(64),
              size: 1,
              published_at: '2026-12-05T00:00:00Z',
              published_by: `x\nforged line${ANSI}`,
              channels: [],
            },
          ],
        });
      case 'stall':
        return; // never answers
      case 'stall-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"releases": [');
        return; // never ends
      default:
        return json(res, 404, { error: { code: 'not_found', message: 'no such scenario' } });
    }
  });
}

type Rpc = { jsonrpc: '2.0'; id?: number | string; method: string; params?: Record<string, unknown> };

const TOOLS = [
  'rimthan.start_workflow',
  'rimthan.continue_workflow',
  'rimthan.prepare_step_validation',
  'rimthan.submit_step_validation',
].map((name) => ({ name, inputSchema: { type: 'object' } }));

/**
 * An MCP endpoint (Streamable HTTP, JSON answers) that calls itself `rimthan` and lists the four guided tools, so the
 * participant connects; then each scenario misbehaves on the request it names. Scenarios that break the connection
 * itself (redirect, huge, stall) do so from the first request on.
 */
export function hostileMcp(): Promise<Listening> {
  return listen((req, res, body) => {
    const scenario = scenarioOf(req);
    if (scenario === 'redirect') {
      res.writeHead(307, { location: 'http://203.0.113.9/mcp' }).end();
      return;
    }
    if (scenario === 'stall') return;
    if (scenario === 'huge') {
      hugeBody(res, '{"jsonrpc": "2.0", "id": 0, "result": {"x": "', TEN_MB, '"}}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const rpc = JSON.parse(body) as Rpc;
    if (rpc.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const reply = (result: unknown): void => json(res, 200, { jsonrpc: '2.0', id: rpc.id, result });
    if (rpc.method === 'initialize') {
      return reply({
        protocolVersion: (rpc.params?.['protocolVersion'] as string | undefined) ?? '2025-06-18',
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'rimthan', version: '0.0.0-hostile' },
      });
    }
    if (rpc.method === 'tools/list') return reply({ tools: TOOLS });
    const structured = (value: unknown): void =>
      reply({ content: [{ type: 'text', text: 'see structuredContent' }], structuredContent: value });
    switch (scenario) {
      case 'shape':
        return structured({ status: 'active', checkpoint: 5 });
      case 'deep':
        return json(
          res,
          200,
          `{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"content":[],"structuredContent":{"status":${deeplyNested(10_000)}}}}`,
        );
      case 'ansi':
        return reply({
          isError: true,
          content: [{ type: 'text', text: 'error' }],
          structuredContent: { error: { code: 'workflow_protocol_error', message: `no ${ANSI}`, reason: 'x' } },
        });
      case 'rpc-error':
        return json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: { code: -32603, message: `broken ${ANSI}` } });
      case 'not-mcp':
        return reply({ content: 'not a list of content blocks' });
      case 'hangup':
        req.socket.destroy();
        return;
      case 'resource':
        if (rpc.method === 'resources/list') {
          return reply({ resources: [{ uri: 'rimthan://registry/r1/summary', name: 'summary' }] });
        }
        return reply({
          contents: [
            { uri: 'rimthan://registry/r1/summary', mimeType: 'application/json', text: deeplyNested(10_000) },
          ],
        });
      default:
        return json(res, 200, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'no such scenario' } });
    }
  });
}

/**
 * A proxy in front of a real MCP endpoint (`upstream`, e.g. http://127.0.0.1:P/mcp) that passes every request through
 * and, on the way back, lets `rewrite` change a JSON-RPC answer (by the request's method and tool name). The first
 * path segment of the proxy's URL is dropped (the scenario), the rest must be the upstream path.
 */
export function rewritingProxy(
  upstream: string,
  rewrite: (scenario: string, rpc: Rpc, answer: Record<string, unknown>) => Record<string, unknown>,
): Promise<Listening> {
  const target = new URL(upstream);
  return listen((req, res, body) => {
    const scenario = scenarioOf(req);
    const rpc = body === '' ? undefined : (JSON.parse(body) as Rpc);
    const headers = { ...req.headers, host: target.host, 'content-length': String(Buffer.byteLength(body)) };
    const forward = request(
      { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8');
          if (rpc !== undefined && /json/.test(up.headers['content-type'] ?? '') && text !== '') {
            text = JSON.stringify(rewrite(scenario, rpc, JSON.parse(text) as Record<string, unknown>));
          }
          const out = { ...up.headers, 'content-length': String(Buffer.byteLength(text)) };
          delete out['transfer-encoding'];
          res.writeHead(up.statusCode ?? 502, out).end(text);
        });
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    forward.end(body);
  });
}
