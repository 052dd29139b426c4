import type { Clock, JsonObject, JsonValue, TokenSigner } from '../../core/index.js';
import { BlockerCode } from '../codes.js';
import { Limits } from '../contracts/primitives.js';
import type { Blocker, Failure } from '../outcomes.js';

/** What the engine is given: the only ways it signs tokens and learns the time. */
export interface GuidedEngineDeps {
  readonly signer: TokenSigner;
  readonly clock: Clock;
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
 * Blockers as JSON, at most as many as the result schema allows (Limits.blockers). Per-field confirmation blockers are
 * the only ones that can grow with the release (one per confirmed-state field); when the list is too long, the first
 * of them that fit are kept beside every other blocker, in the original order. Confirming those fields and calling
 * again shows the rest.
 */
export function blockersJson(list: readonly Blocker[]): JsonObject[] {
  if (list.length <= Limits.blockers) return list.map(outcomeJson);
  const isField = (b: Blocker): boolean => b.code === BlockerCode.ConfirmationRequired;
  let room = Limits.blockers - list.filter((b) => !isField(b)).length;
  return list.filter((b) => !isField(b) || room-- > 0).map(outcomeJson);
}

/** The engine's timestamp format (RFC 3339, UTC, milliseconds). */
export function nowIso(deps: GuidedEngineDeps): string {
  return deps.clock.now().toISOString();
}
