/**
 * Strict decoding of a tool's JSON argument text, before any dependency is touched.
 *
 * Stricter than the reference decoder, deliberately: a duplicate key, a field name in another letter case, `null` for
 * an optional field, a second JSON value after the object, empty text, arguments over 1 MiB (raw text), an `input`
 * or `resume` document nested deeper than 32 levels (the arguments deeper than 33), a `__proto__` key or a number JSON cannot represent, at any depth, are all refused as
 * `invalid_arguments`. Messages name the argument and the schema rule, never a value.
 */
import { isJsonObject, parseStrictJson } from '../core/index.js';
import type { JsonObject, JsonValue, SchemaCompiler, SchemaIssue } from '../core/index.js';

/**
 * Size and nesting limits for one argument text. Documents (`input`, `resume`) may be 256 KiB in canonical form and
 * nest 32 levels (checked in core/canonical-object.ts); the text around them (other fields, whitespace, escapes that the
 * canonical form writes shorter) must not make a valid document unsendable, so the raw text may be 1 MiB, the runs
 * profile's request cap, and nest 33.
 */
export const ARGUMENT_LIMITS = { maxBytes: 1024 * 1024, maxDepth: 33 } as const;

/** The UUID shape: 36 characters, hyphens at 8/13/18/23, hex digits of either case. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID_RE = new RegExp(UUID_PATTERN);
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** A UUID in lowercase, or undefined when `text` is not a UUID or is the all-zero UUID. */
export function parseUuid(text: string): string | undefined {
  if (text.length !== 36 || !UUID_RE.test(text)) return undefined;
  const lower = text.toLowerCase();
  return lower === NIL_UUID ? undefined : lower;
}

/** UTF-8 length of a string (the unit our byte limits use). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export type DecodeResult =
  { readonly ok: true; readonly args: JsonObject } | { readonly ok: false; readonly message: string };

/** Extra rules a JSON Schema cannot state portably: nonzero lowercase-normalised UUIDs and UTF-8 byte limits. */
export interface ArgumentRules {
  readonly uuidFields?: readonly string[];
  readonly maxBytes?: Readonly<Record<string, number>>;
}

export type ArgumentDecoder = (jsonText: string) => DecodeResult;

/** Decodes arguments that are already one parsed JSON value (checked as JSON text would be: see parsed-args.ts). */
export type ValueDecoder = (value: JsonValue) => DecodeResult;

/** Both entry points of one schema's decoder: text is parsed once, then judged by the same value decoder. */
export interface ArgumentDecoders {
  readonly fromText: ArgumentDecoder;
  readonly fromValue: ValueDecoder;
}

/** The refusal of argument text over {@link ARGUMENT_LIMITS}.maxBytes. */
export const SIZE_LIMIT_MESSAGE = `arguments exceed the size limit of ${ARGUMENT_LIMITS.maxBytes} bytes`;

/** The refusal of arguments whose JSON form the strict parser refuses (`reason` never quotes the input). */
export function notAcceptedMessage(reason: string): string {
  return `arguments are not accepted: ${reason}`;
}

const SAFE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function fail(message: string): DecodeResult {
  return { ok: false, message };
}

/**
 * What `JSON.parse` accepts but a document must not carry, at any depth: a `__proto__` key (a later `Object.assign` or
 * `obj[key] = v` copy would set a prototype instead of a field) and a number outside the double range (`1e400` parses
 * to Infinity, which JSON cannot write back: it would come out as null).
 */
function unsafeContent(value: JsonValue): string | undefined {
  const pending: JsonValue[] = [value];
  for (let v = pending.pop(); v !== undefined; v = pending.pop()) {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'arguments hold a number outside the range JSON numbers can represent';
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else if (isJsonObject(v)) {
      if (Object.hasOwn(v, '__proto__')) return 'arguments hold the key "__proto__", which is not accepted';
      for (const key of Object.keys(v)) pending.push(v[key] as JsonValue);
    }
  }
  return undefined;
}

/** Names an argument from the schema path (our schema, so never caller data). */
function describeIssue(issue: SchemaIssue | undefined): string {
  if (issue === undefined) return 'arguments break the input schema';
  const match = /^#\/properties\/([^/]+)\//.exec(issue.schemaPath);
  const where = match?.[1] === undefined ? 'arguments' : `argument "${match[1]}"`;
  return `${where} break${where === 'arguments' ? '' : 's'} the input schema (${issue.keyword} at ${issue.schemaPath})`;
}

/**
 * Compiles a decoder for one closed argument schema (`type: object`, `properties`, `required`,
 * `additionalProperties: false`; a shipped one is compiled on first use). The schema stays the single source of truth: the field checks below only give the
 * common mistakes (unknown or wrong-case field, `null`, missing field) a clearer message before Ajv runs.
 */
export function compileArgumentDecoder(
  schema: JsonObject,
  compiler: SchemaCompiler,
  rules: ArgumentRules = {},
): ArgumentDecoder {
  return compileArgumentDecoders(schema, compiler, rules).fromText;
}

/** {@link compileArgumentDecoder} with the value entry point as well (the text one parses, then calls it). */
export function compileArgumentDecoders(
  schema: JsonObject,
  compiler: SchemaCompiler,
  rules: ArgumentRules = {},
): ArgumentDecoders {
  const check = compiler.compileOrDefer(schema);
  const properties = isJsonObject(schema['properties']) ? schema['properties'] : {};
  const known = new Set(Object.keys(properties));
  const lowerKnown = new Map([...known].map((k) => [k.toLowerCase(), k]));
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((r): r is string => typeof r === 'string')
    : [];
  const uuidFields = rules.uuidFields ?? [];
  const maxBytes = Object.entries(rules.maxBytes ?? {});

  const fromValue = (value: JsonValue): DecodeResult => {
    if (!isJsonObject(value)) return fail('arguments must be one JSON object');
    const unsafe = unsafeContent(value);
    if (unsafe !== undefined) return fail(unsafe);

    for (const key of Object.keys(value)) {
      if (known.has(key)) continue;
      const near = lowerKnown.get(key.toLowerCase());
      if (near !== undefined) return fail(`unknown argument; field names are case-sensitive (did you mean "${near}"?)`);
      return fail(SAFE_NAME.test(key) ? `unknown argument "${key}"` : 'unknown argument');
    }
    for (const key of Object.keys(value)) {
      if (value[key] === null) return fail(`argument "${key}" must not be null; omit an optional argument instead`);
    }
    for (const key of required) {
      if (!Object.hasOwn(value, key)) return fail(`missing required argument "${key}"`);
    }
    const verdict = check(value);
    if (!verdict.ok) return fail(describeIssue(verdict.issues[0]));

    const args: JsonObject = { ...value };
    for (const field of uuidFields) {
      const raw = args[field];
      if (typeof raw !== 'string') continue;
      const id = parseUuid(raw);
      if (id === undefined) return fail(`argument "${field}" must be a nonzero UUID`);
      args[field] = id;
    }
    for (const [field, limit] of maxBytes) {
      const raw = args[field];
      if (typeof raw === 'string' && utf8Length(raw) > limit) return fail(`argument "${field}" exceeds ${limit} bytes`);
    }
    return { ok: true, args };
  };

  const fromText = (jsonText: string): DecodeResult => {
    // The cap is on the raw text (whitespace counts): nothing below, not even trim(), sees an oversized document.
    if (jsonText.length > ARGUMENT_LIMITS.maxBytes || utf8Length(jsonText) > ARGUMENT_LIMITS.maxBytes)
      return fail(SIZE_LIMIT_MESSAGE);
    if (jsonText.trim() === '') return fail('arguments are empty; send one JSON object');
    const parsed = parseStrictJson(jsonText, ARGUMENT_LIMITS);
    if (!parsed.ok) return fail(notAcceptedMessage(parsed.reason));
    return fromValue(parsed.value);
  };

  return { fromText, fromValue };
}
