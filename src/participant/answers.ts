/**
 * Confirmed-state answers: a field's value as the person typed it, read by the type the workflow's confirmed-state
 * schema gives the field (text stays text; numbers, booleans, arrays and objects are JSON, an array may also be
 * comma-separated words), and the projection with that field confirmed now and every unchanged field keeping its
 * earlier confirmation.
 */
import type { JsonObject, JsonValue } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';

function typesOf(property: JsonObject | undefined): string[] {
  if (property === undefined) return [];
  const type = property['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  if (Array.isArray(property['enum']) && property['enum'].every((v) => typeof v === 'string')) return ['string'];
  return [];
}

/** The JSON value of an answer to `field` given as text. */
export function answerValue(schema: JsonObject | undefined, field: string, text: string): JsonValue {
  const properties = (schema?.['properties'] ?? {}) as JsonObject;
  const property = properties[field] as JsonObject | undefined;
  if (schema !== undefined && property === undefined && schema['additionalProperties'] === false) {
    throw new ParticipantError(
      ParticipantErrorCode.WrongStep,
      `the workflow has no confirmed-state field ${field} (fields: ${Object.keys(properties).join(', ')})`,
    );
  }
  const types = typesOf(property);
  if (types.length === 1 && types[0] === 'string') return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    if (types.includes('array'))
      return text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    if (types.length === 0 || types.includes('string')) return text;
    throw new ParticipantError(ParticipantErrorCode.WrongStep, `${field} takes ${types.join(' or ')} (as JSON)`);
  }
}

/** A projection with `state`, confirming now every field that is new or changed against `previous`. */
export function confirmState(state: Readonly<Record<string, JsonValue>>, now: Date, previous?: JsonObject): JsonObject {
  const prevState = (previous?.['state'] ?? {}) as JsonObject;
  const prevConf = (previous?.['confirmations'] ?? {}) as JsonObject;
  const confirmations: JsonObject = {};
  for (const field of Object.keys(state)) {
    const same = JSON.stringify(prevState[field]) === JSON.stringify(state[field]);
    const earlier = prevConf[field];
    confirmations[field] =
      same && earlier !== undefined ? earlier : { confirmed_by: 'participant', confirmed_at: now.toISOString() };
  }
  return { state: { ...state }, confirmations };
}
