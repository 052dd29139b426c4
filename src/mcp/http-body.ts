/**
 * The request body of a Streamable HTTP POST, read under a byte cap, and the 413 that must reach the client:
 *
 * - `Expect: 100-continue` is answered by us, not by Node: `continueOnDemand` takes the server's 'checkContinue'
 *   event, so `100 Continue` is sent only when the body is actually about to be read (after the Host, Origin and
 *   authentication checks), and never for a declared Content-Length over the cap.
 * - A declared Content-Length over the cap is refused before a byte is read; a body that outgrows the cap while it
 *   streams is refused at the first byte over it. Nothing of an oversized body is kept.
 * - The 413 lingers: the response is written with `Connection: close`, the write side is closed once it is flushed,
 *   and what the client still sends is read and discarded until it stops (or a short linger time ends), so the
 *   client's kernel never gets a reset that would throw away the 413 before the client read it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type Body =
  { readonly kind: 'complete'; readonly bytes: Buffer } | { readonly kind: 'too_large' } | { readonly kind: 'gone' };

/** How long an over-cap upload may go on being drained after its 413 was sent. */
export const LINGER_MS = 5_000;

/** Requests whose `100 Continue` is ours to send (they came through 'checkContinue'). */
const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * The 'checkContinue' listener for a server: marks the request so that {@link readBody} sends `100 Continue` when
 * (and only when) it starts reading an acceptable body, then hands it to the ordinary request listener.
 */
export function continueOnDemand(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    awaitingContinue.add(req);
    listener(req, res);
  };
}

/** True when the request declares a Content-Length over `maxBytes`. */
export function declaredTooLarge(req: IncomingMessage, maxBytes: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > maxBytes;
}

/**
 * Collects the body, stopping at the first byte over `maxBytes` (a declared Content-Length over the cap stops it
 * before any byte is read, and before any `100 Continue`). After `too_large` the rest of the body is discarded unread.
 */
export function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<Body> {
  if (declaredTooLarge(req, maxBytes)) {
    req.resume();
    return Promise.resolve({ kind: 'too_large' });
  }
  if (awaitingContinue.delete(req)) res.writeContinue();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (outcome: Body): void => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // A late 'error' after we stopped listening must not become an unhandled stream error.
      if (outcome.kind !== 'complete') req.on('error', () => undefined);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      if (total <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      settle({ kind: 'too_large' });
      req.resume();
    };
    const onEnd = (): void => settle({ kind: 'complete', bytes: Buffer.concat(chunks, total) });
    // A body that fails to arrive (reset, aborted upload, request timeout) is the client's doing, never a fault.
    const onError = (): void => settle({ kind: 'gone' });
    const onClose = (): void => settle({ kind: 'gone' });
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Makes the socket's close after this response a lingering one (see the module comment): Node closes a
 * `Connection: close` response's socket with `destroySoon()` once the response is written; here that becomes "end
 * the write side, keep discarding input, destroy when the client is done or after `lingerMs`".
 */
export function lingerOnClose(req: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket = req.socket as Socket | null;
  if (socket === null || socket.destroyed) return;
  req.resume();
  let lingering = false;
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.destroyed || lingering) return;
    lingering = true;
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    // The client closed its side (it read the 413 and gave up, or finished sending): nothing is left to protect.
    this.once('end', () => this.destroy());
    this.on('error', () => this.destroy());
    this.end();
    this.resume();
  };
}

const DISCONNECT_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
]);

/**
 * True for an error that only means the client went away (reset, broken pipe, aborted upload): any remote client can
 * cause one at will, so it is not an internal fault and is not reported as one.
 */
export function isClientDisconnect(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && DISCONNECT_CODES.has(code)) || message === 'aborted';
}
