/** Raw HTTP plumbing for adversarial tests: byte-exact requests over a socket and replies parsed by hand. */
import assert from 'node:assert/strict';
import { connect } from 'node:net';

export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Everything the server wrote, as text. */
  readonly raw: string;
}

/** Splits one HTTP/1.1 response (the first in `raw`). Chunked bodies are not decoded: our server never chunks. */
export function parseReply(raw: string): RawReply {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? -1);
  const rest = end < 0 ? '' : raw.slice(end + 4);
  return { status, headers, body: length >= 0 ? rest.slice(0, length) : rest, raw };
}

/**
 * Opens a socket, writes `chunks` in order, and resolves with the first complete reply (or whatever arrived when the
 * server closed the connection). `keepOpen` leaves the request unfinished: the server must answer on its own.
 */
export function rawExchange(url: string, chunks: readonly (string | Buffer)[]): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(parseReply(data.toString('utf8')));
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const reply = parseReply(data.toString('utf8'));
      const length = Number(reply.headers['content-length'] ?? -1);
      if (reply.status > 0 && length >= 0 && Buffer.byteLength(reply.body) >= length) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish();
      else if (!settled) reject(error);
    });
    socket.on('close', finish);
    for (const chunk of chunks) socket.write(chunk);
  });
}

export const MCP_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

/** A complete POST with a Content-Length, as raw text. */
export function postText(
  url: string,
  body: string | Buffer,
  headers: Readonly<Record<string, string>> = {},
  method = 'POST',
): string {
  const { host, pathname, search } = new URL(url);
  const all: Record<string, string> = { Host: host, ...MCP_HEADERS, ...headers };
  all['Content-Length'] = String(Buffer.byteLength(body));
  all['Connection'] = 'close';
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${pathname}${search} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body.toString()}`;
}

/** Sends one complete request and returns the reply. */
export function exchange(
  url: string,
  body: string | Buffer,
  headers: Readonly<Record<string, string>> = {},
  method = 'POST',
): Promise<RawReply> {
  return rawExchange(url, [postText(url, body, headers, method)]);
}

/** The reply is a JSON error body with `Cache-Control: private, no-store`, no HTML, no stack, no file path. */
export function assertSafeJsonError(reply: RawReply, status: number): { code: number; message: string } {
  assert.equal(reply.status, status, reply.raw.slice(0, 400));
  assert.equal(reply.headers['cache-control'], 'private, no-store', `Cache-Control on ${status}`);
  assert.match(reply.headers['content-type'] ?? '', /^application\/json/);
  assert.doesNotMatch(reply.body, /<html|\n\s+at |\bat [^ ]+ \(|\/work\/|\/tmp\/|node:internal/i);
  const parsed = JSON.parse(reply.body) as { error?: { code?: unknown; message?: unknown } };
  assert.equal(typeof parsed.error?.code, 'number');
  assert.equal(typeof parsed.error?.message, 'string');
  return { code: parsed.error?.code as number, message: parsed.error?.message as string };
}

/** A JSON-RPC request body. */
export function rpc(method: string, params?: unknown, id: number | string = 1): string {
  return JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
}
