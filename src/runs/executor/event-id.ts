/**
 * Deterministic activity event ids: a UUIDv5-style name-based UUID over (session, run, kind, revision, vertex, ordinal).
 * Publishing the same activity twice yields the same id, so a retried commit never duplicates a history entry.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.js';

/** Fixed namespace of Rimthan activity ids (a random v4 UUID chosen once; never change it). */
export const ACTIVITY_NAMESPACE = '3b0e8a52-6f4d-4c1e-9a7b-d25f0c8e41a6';

const NAMESPACE_BYTES = Buffer.from(ACTIVITY_NAMESPACE.replaceAll('-', ''), 'hex');

export interface EventIdParts {
  readonly session_id: string;
  readonly run_id: string;
  readonly kind: string;
  readonly revision: number;
  readonly vertex_id?: string | undefined;
  readonly ordinal: number;
}

/** The lowercase UUID (version 5 layout, RFC 4122 variant) naming one activity entry. */
export function activityEventId(parts: EventIdParts): string {
  const tuple = [parts.session_id, parts.run_id, parts.kind, parts.revision, parts.vertex_id ?? null, parts.ordinal];
  // For strings without lone surrogates and integer counters, JSON.stringify writes exactly the RFC 8785 text (JCS
  // escapes strings the way JSON.stringify does); a lone surrogate shows up as "\ud8xx" and takes the strict path.
  const quick =
    Number.isSafeInteger(parts.revision) && Number.isSafeInteger(parts.ordinal) ? JSON.stringify(tuple) : '';
  const name = quick !== '' && !quick.includes('\\u') ? quick : canonicalJson(tuple);
  const bytes = createHash('sha1').update(NAMESPACE_BYTES).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
