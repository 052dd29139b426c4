/** In-process stand-ins for `node:http` requests and responses, for the src/http unit tests (no sockets). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

/** A request whose body is `chunks` (sent on the next tick), with the given headers. */
export function fakeRequest(
  headers: Record<string, string>,
  chunks: readonly (string | Buffer)[] = [],
): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers, method: 'POST', url: '/' });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    stream.end();
  });
  return stream as unknown as IncomingMessage;
}

/** What a fake response was sent. */
export interface Sent {
  status?: number;
  headers: Record<string, string>;
  body: string;
}

/** A response that records the status, headers and body it is sent. */
export function fakeResponse(): { res: ServerResponse; sent: Sent } {
  const sent: Sent = { headers: {}, body: '' };
  const res = {
    headersSent: false,
    writeHead(status: number, headers: Record<string, string>) {
      sent.status = status;
      Object.assign(sent.headers, headers);
      this.headersSent = true;
      return this;
    },
    end(body?: string | Buffer) {
      if (body !== undefined) sent.body += body.toString();
      return this;
    },
    destroy() {
      return this;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}
