import { RimthanError } from './errors.js';

/** Deepest nesting canonicalJson accepts; deeper values are refused rather than risking the stack. */
export const MAX_CANONICAL_DEPTH = 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string holds a UTF-16 surrogate that is not part of a pair (not representable in UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * RFC 8785 (JSON Canonicalization Scheme): object keys sorted by UTF-16 code units, ECMAScript number formatting,
 * minimal string escaping, no whitespace. Equal JSON values give byte-identical text, so digests over it are stable.
 * Refuses what JSON cannot carry faithfully: non-finite numbers, lone surrogates, undefined, functions, bigints,
 * symbols, class instances, and nesting deeper than {@link MAX_CANONICAL_DEPTH}.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, 0, parts);
  return parts.join('');
}

function write(value: unknown, depth: number, out: string[]): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) throw refuse('a non-finite number');
      out.push(JSON.stringify(value));
      return;
    case 'string':
      out.push(quote(value));
      return;
    case 'object':
      break;
    default:
      throw refuse(`a ${typeof value}`);
  }
  if (depth >= MAX_CANONICAL_DEPTH) throw refuse('nesting deeper than the limit');
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], depth + 1, out);
    }
    out.push(']');
    return;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw refuse('a non-plain object');
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) throw refuse('an undefined member');
    if (!first) out.push(',');
    first = false;
    out.push(quote(key), ':');
    write(member, depth + 1, out);
  }
  out.push('}');
}

function quote(text: string): string {
  if (hasLoneSurrogate(text)) throw refuse('a lone surrogate');
  return JSON.stringify(text);
}

function refuse(what: string): RimthanError {
  return new RimthanError('invalid_json', `value cannot be canonicalised: it contains ${what}`);
}
