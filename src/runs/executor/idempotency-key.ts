import { sha256Hex } from '../../core/digest.js';

/**
 * Tries one execution may begin under one epoch (2^21). Attempt ids stay below 2^52: epochs are record revisions,
 * which the store keeps below 2^31.
 */
export const TRIES_PER_EPOCH = 2 ** 21;

/**
 * The attempt id of try `seq` (1-based, counted over the whole execution) of the execution whose fencing write
 * produced record revision `epoch` (its claim, or the seed that took the lease). Each such write produces a distinct
 * revision and is durable before the execution runs anything, so two executions never share an epoch, and within one
 * execution `seq` never repeats: every try of every execution has its own id without a write per try.
 */
export function attemptIdOf(epoch: number, seq: number): number {
  return epoch * TRIES_PER_EPOCH + seq;
}

/**
 * The idempotency key of one vertex try: SHA-256 (hex) of `${runId}:${vertex}:${attemptId}`. Deterministic, so the same
 * (run, vertex, attempt) always yields the same key and a side-effect service can deduplicate; every try has its own
 * attempt id (see attemptIdOf), so a retry or a re-execution after a crash presents a new key.
 */
export function vertexIdempotencyKey(runId: string, vertex: string, attemptId: number): string {
  return sha256Hex(`${runId}:${vertex}:${attemptId}`);
}
