/**
 * Closed params checks for the methods an extension registers (`server.setRequestHandler(method, {params}, handler)`):
 * a StandardSchemaV1 that accepts an object holding exactly the required keys, any of the optional ones and `_meta`
 * (the 2026-07-28 envelope), each passing its check, and nothing else. A refusal carries one fixed issue, so the SDK's
 * -32602 reads "Invalid params for <method>: invalid params" and never echoes the request.
 */

/** A check of one params value. */
export type ParamCheck = (value: unknown) => boolean;

const INVALID = Object.freeze({ issues: Object.freeze([Object.freeze({ message: 'invalid params' })]) });

/** A non-empty string of at most `max` UTF-16 units. */
export function boundedString(max: number): ParamCheck {
  return (value) => typeof value === 'string' && value.length > 0 && value.length <= max;
}

/** A JSON object (not an array, not null). */
export const isParamsObject: ParamCheck = (value) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The StandardSchemaV1 of closed params with these `required` and `optional` keys. */
export function closedParams(
  required: Readonly<Record<string, ParamCheck>>,
  optional: Readonly<Record<string, ParamCheck>> = {},
) {
  const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'rimthan',
      validate(value: unknown) {
        if (!isParamsObject(value)) return INVALID;
        const o = value as Record<string, unknown>;
        for (const k of Object.keys(required)) if (!has(o, k)) return INVALID;
        for (const [k, v] of Object.entries(o)) {
          if (k === '_meta') {
            if (!isParamsObject(v)) return INVALID;
            continue;
          }
          const check = has(required, k) ? required[k] : has(optional, k) ? optional[k] : undefined;
          if (check === undefined || !check(v)) return INVALID;
        }
        return { value: o };
      },
    },
  };
}

/** The StandardSchemaV1 of any params object, for a handler that applies its own closedParams check later. */
export const ANY_PARAMS_OBJECT = {
  '~standard': {
    version: 1 as const,
    vendor: 'rimthan',
    validate(value: unknown) {
      return isParamsObject(value) ? { value: value as Record<string, unknown> } : INVALID;
    },
  },
};
