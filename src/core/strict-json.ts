import { hasLoneSurrogate } from './canonical-json.js';
import type { JsonValue } from './json.js';

export interface JsonLimits {
  /** UTF-8 byte length cap, checked before parsing (default 4 MiB). */
  readonly maxBytes?: number;
  /** Deepest nesting of arrays/objects (default 64). */
  readonly maxDepth?: number;
  /** Total object members in the document (default 100 000). */
  readonly maxKeys?: number;
}

export type StrictJsonResult = { ok: true; value: JsonValue } | { ok: false; reason: string };

/** The limits applied when a caller sets none. */
export const STRICT_JSON_DEFAULTS = { maxBytes: 4 * 1024 * 1024, maxDepth: 64, maxKeys: 100_000 } as const;
const DEFAULTS = STRICT_JSON_DEFAULTS;

/** The structural refusals of the scan (a checker of already parsed values reports the same words). */
export const StrictJsonReason = {
  Depth: 'document nesting exceeds the depth limit',
  Members: 'document exceeds the member limit',
  RepeatedKey: 'document repeats a key in one object',
  PrototypeKey: 'document uses a prototype key',
} as const;
const ANY_SURROGATE = /[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/;
const PROTOTYPE_KEY = '__proto__';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Parses one JSON document and refuses what `JSON.parse` lets through: duplicate keys (at any depth), `__proto__`
 * keys (a prototype-pollution vector in any consumer that copies objects), lone surrogates, numbers beyond double
 * range, nesting, size or member counts over the limits. Syntax (including trailing content and empty input) is checked by
 * the native parser, the structural rules by one linear scan. `reason` never quotes the input.
 */
export function parseStrictJson(text: string, limits: JsonLimits = {}): StrictJsonResult {
  const maxBytes = limits.maxBytes ?? DEFAULTS.maxBytes;
  if (text.length > maxBytes || Buffer.byteLength(text, 'utf8') > maxBytes)
    return fail('document exceeds the size limit');
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return fail('document is not valid JSON');
  }
  const structural = scan(text, limits.maxDepth ?? DEFAULTS.maxDepth, limits.maxKeys ?? DEFAULTS.maxKeys);
  if (typeof structural === 'string') return fail(structural);
  if (ANY_SURROGATE.test(text) && containsLoneSurrogate(value)) return fail('document contains a lone surrogate');
  // A number literal beyond double range parses to ±Infinity, which no later stage can represent faithfully.
  if (structural.bigNumber && containsNonFinite(value)) return fail('document contains an out-of-range number');
  return { ok: true, value };
}

/** {@link parseStrictJson} over bytes, decoding UTF-8 fatally (invalid sequences are refused, a BOM is refused). */
export function parseStrictJsonBytes(bytes: Uint8Array, limits: JsonLimits = {}): StrictJsonResult {
  if (bytes.byteLength > (limits.maxBytes ?? DEFAULTS.maxBytes)) return fail('document exceeds the size limit');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return fail('document is not valid UTF-8');
  }
  return parseStrictJson(text, limits);
}

function fail(reason: string): StrictJsonResult {
  return { ok: false, reason };
}

/**
 * One pass over syntactically valid JSON text: tracks nesting, counts members, detects a repeated key in any object,
 * and notes whether any number literal could lie beyond double range: an exponent of three or more digits, or a run
 * of 200 digits (with an exponent below 100, only 210 or more integer digits reach 1e308). That is a superset of the
 * literals that parse to ±Infinity; the parsed value is then searched for them. Outside strings it steps character by
 * character (that text is short: punctuation, numbers, literals); string bodies are skipped with `indexOf`, so its
 * cost stays well under the native parser's. Keys without escapes are compared as raw slices; escaped keys are
 * decoded first.
 */
function scan(text: string, maxDepth: number, maxKeys: number): string | { bigNumber: boolean } {
  const stack: (Set<string> | null)[] = [];
  let members = 0;
  let digits = 0; // length of the digit run just read
  let exponent = false; // that run is an exponent
  let bigNumber = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 /* 0 */ && c <= 0x39 /* 9 */) {
      digits++;
      if (digits >= (exponent ? 3 : 200)) bigNumber = true;
      continue;
    }
    if ((c === 0x65 /* e */ || c === 0x45) /* E */ && digits > 0) {
      exponent = true; // only a number puts a digit right before an e (true and false do not)
      digits = 0;
      continue;
    }
    if (exponent && (c === 0x2b /* + */ || c === 0x2d) /* - */ && digits === 0) continue;
    digits = 0;
    exponent = false;
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length >= maxDepth) return StrictJsonReason.Depth;
      stack.push(c === 0x7b ? new Set<string>() : null);
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      continue;
    }
    if (c !== 0x22 /* " */) continue;
    const end = closingQuote(text, i + 1);
    const keys = stack[stack.length - 1];
    if (keys !== undefined && keys !== null && isKey(text, end + 1)) {
      if (++members > maxKeys) return StrictJsonReason.Members;
      const raw = text.slice(i + 1, end);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
      if (keys.has(key)) return StrictJsonReason.RepeatedKey;
      if (key === PROTOTYPE_KEY) return StrictJsonReason.PrototypeKey;
      keys.add(key);
    }
    i = end;
  }
  return { bigNumber };
}

/** Index of the quote that closes a string whose body starts at `from` (an odd run of backslashes escapes it). */
function closingQuote(text: string, from: number): number {
  let j = text.indexOf('"', from);
  for (;;) {
    let backslashes = 0;
    for (let k = j - 1; k >= from && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
}

function isKey(text: string, from: number): boolean {
  for (let k = from; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x3a) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

function containsNonFinite(value: JsonValue): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(containsNonFinite);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsNonFinite);
  return false;
}

function containsLoneSurrogate(value: JsonValue): boolean {
  if (typeof value === 'string') return hasLoneSurrogate(value);
  if (Array.isArray(value)) return value.some(containsLoneSurrogate);
  if (value !== null && typeof value === 'object') {
    return Object.keys(value).some((k) => hasLoneSurrogate(k) || containsLoneSurrogate(value[k] as JsonValue));
  }
  return false;
}
