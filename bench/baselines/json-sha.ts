/**
 * The raw floor for artifact preparation: what any server must at least do with submitted JSON bytes — decode, parse
 * with the built-in `JSON.parse`, and SHA-256 the bytes. No strictness, no schema, no canonical form.
 */
import { createHash } from 'node:crypto';

/** Parses and hashes `bytes` the cheapest way Node offers; returns the digest so the work cannot be optimised away. */
export function rawParseAndHash(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const value: unknown = JSON.parse(text);
  if (value === undefined) throw new Error('unreachable');
  return createHash('sha256').update(bytes).digest('hex');
}
