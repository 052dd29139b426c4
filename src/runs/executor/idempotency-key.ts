import { sha256Hex } from '../../core/digest.js';

/**
 * The idempotency key of one vertex try: SHA-256 (hex) of `${runId}:${vertex}:${attemptId}`. Deterministic, so the same
 * (run, vertex, attempt) always yields the same key and a side-effect service can deduplicate; every try has its own
 * durable attempt id, so a retry or a re-execution after a crash presents a new key.
 */
export function vertexIdempotencyKey(runId: string, vertex: string, attemptId: number): string {
  return sha256Hex(`${runId}:${vertex}:${attemptId}`);
}
