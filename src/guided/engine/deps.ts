import type { Clock, JsonObject, JsonValue, TokenSigner } from '../../core/index.js';
import { BlockerCode } from '../codes.js';
import { Limits } from '../contracts/primitives.js';
import type { Blocker, Failure } from '../outcomes.js';

/** What the engine is given: the only ways it signs tokens and learns the time. */
export interface GuidedEngineDeps {
  readonly signer: TokenSigner;
  readonly clock: Clock;
  /** A checkpoint issued longer ago than this is expired; default {@link DEFAULT_CHECKPOINT_MAX_AGE_MS}. */
  readonly checkpointMaxAgeMs?: number;
}

/** The default checkpoint lifetime: 30 days. */
export const DEFAULT_CHECKPOINT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** What verifyCheckpoint needs to judge a checkpoint's age. */
export function checkpointLifetime(deps: GuidedEngineDeps): { readonly now: Date; readonly maxAgeMs: number } {
  return { now: deps.clock.now(), maxAgeMs: deps.checkpointMaxAgeMs ?? DEFAULT_CHECKPOINT_MAX_AGE_MS };
}

/** A blocker or failure as a JSON object (absent optional fields omitted). */
export function outcomeJson(outcome: Blocker | Failure): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(outcome) as [string, JsonValue | undefined][]) {
    if (value !== undefined) out[key] = typeof value === 'object' ? { ...value } : value;
  }
  return out;
}

/**
 * Blockers as JSON, at most as many as the result schema allows (Limits.blockers). Both kinds can outgrow it with a
 * large release: per-field confirmation blockers (one per confirmed-state field) and host blockers (one repository
 * policy conflict per protected output path). When the list is too long, host blockers come first and per-field
 * confirmations fill the room left, each kind in its original order; resolving those and calling again shows the rest.
 */
export function blockersJson(list: readonly Blocker[]): JsonObject[] {
  if (list.length <= Limits.blockers) return list.map(outcomeJson);
  const isField = (b: Blocker): boolean => b.code === BlockerCode.ConfirmationRequired;
  const host = list.filter((b) => !isField(b)).slice(0, Limits.blockers);
  const fields = list.filter(isField).slice(0, Limits.blockers - host.length);
  return [...host, ...fields].map(outcomeJson);
}

/** The engine's timestamp format (RFC 3339, UTC, milliseconds). */
export function nowIso(deps: GuidedEngineDeps): string {
  return deps.clock.now().toISOString();
}
