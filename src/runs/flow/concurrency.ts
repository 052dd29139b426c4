/**
 * Concurrency limits of a flow (FlowSpec.concurrency): checked once at `register`, then asked for the slot of each run
 * at its start. A key is computed from the run's input by the flow's own function; an answer that is not a non-empty
 * string of at most 256 bytes (or a throw) refuses the start, and the message never repeats the key or the input.
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { ConcurrencySpec } from './types.js';

export const MAX_CONCURRENCY_LIMIT = 10_000;
export const MAX_CONCURRENCY_KEY_BYTES = 256;

/** A checked concurrency declaration. */
export interface CompiledConcurrency {
  readonly limit: number;
  /** True when runs are keyed by their input; false for one flow-wide key. */
  readonly keyed: boolean;
  /** The run's slot key ('' for a flow-wide limit), or a message saying why the input yields none. */
  keyOf(
    input: JsonObject,
  ): { readonly ok: true; readonly key: string } | { readonly ok: false; readonly message: string };
}

const FLOW_WIDE = Object.freeze({ ok: true as const, key: '' });

/** Checks `spec.concurrency` (undefined when the flow declares none); throws invalid_definition. */
export function compileConcurrency(spec: ConcurrencySpec | undefined): CompiledConcurrency | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec !== 'object' || spec === null) throw invalid('concurrency must be an object { limit, key? }');
  const { limit, key } = spec;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_CONCURRENCY_LIMIT) {
    throw invalid(`concurrency.limit must be an integer from 1 to ${MAX_CONCURRENCY_LIMIT}`);
  }
  if (key !== undefined && typeof key !== 'function') throw invalid('concurrency.key must be a function of the input');
  return Object.freeze({
    limit,
    keyed: key !== undefined,
    keyOf: (input: JsonObject) => (key === undefined ? FLOW_WIDE : computeKey(key, input)),
  });
}

function computeKey(
  key: (input: Readonly<JsonObject>) => string,
  input: JsonObject,
): { readonly ok: true; readonly key: string } | { readonly ok: false; readonly message: string } {
  let value: unknown;
  try {
    value = key(structuredClone(input));
  } catch {
    return { ok: false, message: 'the flow concurrency key function threw for this input' };
  }
  if (typeof value !== 'string' || value.length === 0 || Buffer.byteLength(value, 'utf8') > MAX_CONCURRENCY_KEY_BYTES) {
    return {
      ok: false,
      message: `the flow concurrency key must be a non-empty string of at most ${MAX_CONCURRENCY_KEY_BYTES} bytes`,
    };
  }
  return { ok: true, key: value };
}

function invalid(message: string): RimthanError {
  return new RimthanError('invalid_definition', message);
}
