/**
 * Request bodies, read under a byte cap, and the refusals around them:
 *
 * - A declared Content-Length over the cap is refused before a byte is read; a body that outgrows the cap while it
 *   streams is refused at the first byte over it. Nothing of an oversized body is kept; the rest is drained unread.
 * - `Expect: 100-continue` can be ours to answer (a listener opened with `continueOnDemand`): `100 Continue` is sent
 *   only when the body is actually about to be read (after the listener's own checks), never for an over-cap body.
 * - A 413 can linger ({@link lingerOnClose}): the answer is written with `Connection: close`, the write side is closed
 *   once it is flushed, and what the client still sends is read and discarded until it stops (or a short linger time
 *   ends), so the client's kernel never gets a reset that would throw away the 413 before the client read it.
 * - A JSON body must say `Content-Type: application/json` (which a cross-site form cannot send without a CORS
 *   preflight) and is parsed with the strict parser (duplicate keys, lone surrogates, depth and size limits).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isJsonObject, parseStrictJsonBytes } from '../core/index.js';
import type { JsonObject } from '../core/index.js';

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

/** True when the request declares a Content-Length over `maxBytes` (or one that is not a number). */
export function declaredTooLarge(req: IncomingMessage, maxBytes: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && !(Number(declared) <= maxBytes);
}

/** True when the request announces a body (a length other than 0, or a chunked one). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Collects the body, stopping at the first byte over `maxBytes` (a declared Content-Length over the cap stops it
 * before any byte is read, and before any `100 Continue`). After `too_large` the rest of the body is discarded unread;
 * `gone` is a client that reset, aborted or timed out (the client's doing, never a fault).
 */
export function readBody(req: IncomingMessage, maxBytes: number, res?: ServerResponse): Promise<Body> {
  if (declaredTooLarge(req, maxBytes)) {
    req.resume();
    return Promise.resolve({ kind: 'too_large' });
  }
  if (awaitingContinue.delete(req)) res?.writeContinue();
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

/** A body refused: the error code (a status table key) and a safe message. */
export interface BodyRefusal {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

/** True when the request says `Content-Type: application/json` (parameters such as charset aside). */
export function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** The bytes of an `application/json` body under the cap, the refusal to answer with, or `gone`. */
export async function readJsonBytes(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ readonly ok: true; readonly bytes: Buffer } | BodyRefusal | 'gone'> {
  if (!isJsonContentType(req)) {
    req.resume();
    return { ok: false, code: 'unsupported_media_type', message: 'the body must be application/json' };
  }
  const body = await readBody(req, maxBytes);
  if (body.kind === 'gone') return 'gone';
  if (body.kind === 'too_large') return { ok: false, code: 'too_large', message: `the body exceeds ${maxBytes} bytes` };
  return { ok: true, bytes: body.bytes };
}

/** The body as one strict JSON object, the refusal to answer with, or `gone`. */
export async function readJsonObject(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ readonly ok: true; readonly value: JsonObject } | BodyRefusal | 'gone'> {
  const read = await readJsonBytes(req, maxBytes);
  if (read === 'gone' || !read.ok) return read;
  const parsed = parseStrictJsonBytes(read.bytes, { maxBytes });
  if (!parsed.ok) return { ok: false, code: 'parse_error', message: 'the body is not one strict JSON document' };
  if (!isJsonObject(parsed.value)) {
    return { ok: false, code: 'invalid_arguments', message: 'the body must be a JSON object' };
  }
  return { ok: true, value: parsed.value };
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
