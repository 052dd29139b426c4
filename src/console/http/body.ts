/**
 * Request bodies: JSON only (`Content-Type: application/json`, which a cross-site form cannot send without a CORS
 * preflight), capped while they stream in (a declared length over the cap is refused before a byte is read), parsed
 * with the strict parser (duplicate keys, lone surrogates, depth and size limits) into one JSON object.
 */
import type { IncomingMessage } from 'node:http';
import { isJsonObject, parseStrictJsonBytes } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';

export type BodyResult =
  | { readonly ok: true; readonly value: JsonObject }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** True when the request announces a body (a length other than 0, or a chunked one). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Collects at most `maxBytes`: `too_large` past the cap (the rest is drained unread), `gone` for a lost client. */
export function readBytes(req: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large' | 'gone'> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && !(Number(declared) <= maxBytes)) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (outcome: Buffer | 'too_large' | 'gone'): void => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      total += chunk.byteLength;
      if (total > maxBytes) {
        chunks.length = 0;
        finish('too_large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(Buffer.concat(chunks, total)));
    req.on('error', () => finish('gone'));
    req.on('close', () => finish('gone'));
  });
}

/** The body as one strict JSON object, or the refusal to answer with. */
export async function readJsonObject(req: IncomingMessage, maxBytes: number): Promise<BodyResult | 'gone'> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return { ok: false, code: 'unsupported_media_type', message: 'the body must be application/json' };
  }
  const bytes = await readBytes(req, maxBytes);
  if (bytes === 'gone') return 'gone';
  if (bytes === 'too_large') return { ok: false, code: 'too_large', message: `the body exceeds ${maxBytes} bytes` };
  const parsed = parseStrictJsonBytes(bytes, { maxBytes });
  if (!parsed.ok) return { ok: false, code: 'parse_error', message: 'the body is not one strict JSON document' };
  if (!isJsonObject(parsed.value))
    return { ok: false, code: 'invalid_arguments', message: 'the body must be a JSON object' };
  return { ok: true, value: parsed.value };
}
