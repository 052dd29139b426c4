import type { Clock, JsonObject, JsonValue, TokenSigner } from '../../core/index.js';
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

/** The engine's timestamp format (RFC 3339, UTC, milliseconds). */
export function nowIso(deps: GuidedEngineDeps): string {
  return deps.clock.now().toISOString();
}
