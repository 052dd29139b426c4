import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** SHA-256 as lowercase hex; strings are hashed as UTF-8. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** SHA-256 of the RFC 8785 canonical form: equal JSON values get equal digests whatever their spelling. */
export function digestJson(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
