/**
 * A transparent HTTP tap in front of `rimthan serve --transport http`: it forwards every request and answer unchanged
 * and records each exchange (the JSON-RPC message sent, the answer's JSON-RPC messages, whether JSON or an event
 * stream), so a host test can see what the host negotiated and whether a form was asked and how it was answered, as
 * the stdio tap does for stdio.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TapEntry } from './tap-log.js';

export interface HttpTap {
  readonly url: string;
  readonly entries: TapEntry[];
  close(): Promise<void>;
}

function messagesOf(text: string, contentType: string | undefined): unknown[] {
  const parse = (s: string): unknown[] => {
    try {
      const value = JSON.parse(s) as unknown;
      return Array.isArray(value) ? value : [value];
    } catch {
      return [];
    }
  };
  if (contentType?.includes('text/event-stream') === true)
    return text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .flatMap((l) => parse(l.slice('data:'.length).trim()));
  return parse(text);
}

export async function startHttpTap(target: string): Promise<HttpTap> {
  const upstream = new URL(target);
  const entries: TapEntry[] = [];
  const started = performance.now();
  const record = (dir: 'in' | 'out', messages: unknown[]): void => {
    for (const message of messages)
      if (message !== null && typeof message === 'object')
        entries.push({ at_ms: performance.now() - started, dir, message: message as Record<string, unknown> });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length > 0) record('in', messagesOf(body.toString('utf8'), 'application/json'));
      const forward = request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => {
            parts.push(c);
            res.write(c);
          });
          answer.on('end', () => {
            record('out', messagesOf(Buffer.concat(parts).toString('utf8'), answer.headers['content-type']));
            res.end();
          });
        },
      );
      forward.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}${upstream.pathname}`,
    entries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
