/**
 * A person's form answer as confirmed state: exactly the `next_confirmed_state` a harness would send to continue after
 * the person confirmed that field (the prior state with the field set, and its participant confirmation made now).
 */
import type { JsonObject, JsonValue } from '../../core/index.js';

/** The next confirmed-state projection: `prior` with `field` set to `value`, confirmed by the participant at `at`. */
export function confirmedAnswer(prior: JsonObject, field: string, value: JsonValue, at: Date): JsonObject {
  const state = prior['state'] as JsonObject;
  const confirmations = prior['confirmations'] as JsonObject;
  return {
    state: { ...state, [field]: value },
    confirmations: { ...confirmations, [field]: { confirmed_by: 'participant', confirmed_at: at.toISOString() } },
  };
}
