/**
 * Flat forms: a closed object of primitive fields a person can fill in (text, number, yes/no, one choice, several
 * choices). `flatFieldOf` turns one JSON Schema property into such a field only when the field says exactly what the
 * schema says (every keyword is one a form can carry); anything richer is "not a form", never an approximation. An
 * answer is read back strictly: an object with known fields only, every required one present, each of its field's type.
 * The caller still validates the answer against the real schema afterwards.
 */
import type { JsonObject, JsonValue } from './json.js';
import { isJsonObject } from './json.js';

export type FlatStringFormat = 'email' | 'uri' | 'date' | 'date-time';
const FORMATS: ReadonlySet<string> = new Set(['email', 'uri', 'date', 'date-time']);

/** One choice of a single- or multi-select field. */
export interface FlatChoice {
  readonly const: string;
  readonly title: string;
}

interface Described {
  readonly title?: string;
  readonly description?: string;
}

export type FlatField =
  | (Described & {
      readonly type: 'string';
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly format?: FlatStringFormat;
      readonly default?: string;
    })
  | (Described & { readonly type: 'string'; readonly oneOf: readonly FlatChoice[]; readonly default?: string })
  | (Described & {
      readonly type: 'number' | 'integer';
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    })
  | (Described & { readonly type: 'boolean'; readonly default?: boolean })
  | (Described & {
      readonly type: 'array';
      readonly items: { readonly anyOf: readonly FlatChoice[] };
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: readonly string[];
    });

export interface FlatForm {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, FlatField>>;
  readonly required: readonly string[];
}

/** Most fields one form may have, longest text answer (characters), and most choices per field. */
export const FLAT_FORM_LIMITS = { fields: 32, textChars: 16 * 1024, choices: 100 } as const;

const COMMON = new Set(['type', 'title', 'description', 'default']);
const STRING_KEYS = new Set([...COMMON, 'minLength', 'maxLength', 'format']);
const ENUM_KEYS = new Set([...COMMON, 'enum']);
const NUMBER_KEYS = new Set([...COMMON, 'minimum', 'maximum']);
const ARRAY_KEYS = new Set([...COMMON, 'items', 'minItems', 'maxItems', 'uniqueItems']);
const ROOT_KEYS = new Set([
  '$schema',
  'type',
  'title',
  'description',
  'properties',
  'required',
  'additionalProperties',
]);

function onlyKeys(schema: JsonObject, allowed: ReadonlySet<string>): boolean {
  return Object.keys(schema).every((k) => allowed.has(k));
}

function count(value: JsonValue | undefined): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function described(schema: JsonObject): Described {
  const out: { title?: string; description?: string } = {};
  if (typeof schema['title'] === 'string') out.title = schema['title'];
  if (typeof schema['description'] === 'string') out.description = schema['description'];
  return out;
}

function describedOk(schema: JsonObject): boolean {
  return (
    (schema['title'] === undefined || typeof schema['title'] === 'string') &&
    (schema['description'] === undefined || typeof schema['description'] === 'string')
  );
}

function choicesOf(values: JsonValue | undefined): FlatChoice[] | undefined {
  if (!Array.isArray(values) || values.length === 0 || values.length > FLAT_FORM_LIMITS.choices) return undefined;
  if (!values.every((v): v is string => typeof v === 'string')) return undefined;
  if (new Set(values).size !== values.length) return undefined;
  return values.map((v) => ({ const: v, title: v }));
}

function stringField(schema: JsonObject): FlatField | undefined {
  if (schema['enum'] !== undefined) {
    if (!onlyKeys(schema, ENUM_KEYS)) return undefined;
    const oneOf = choicesOf(schema['enum']);
    const dflt = schema['default'];
    if (oneOf === undefined || (dflt !== undefined && !oneOf.some((c) => c.const === dflt))) return undefined;
    return { ...described(schema), type: 'string', oneOf, ...(typeof dflt === 'string' ? { default: dflt } : {}) };
  }
  if (!onlyKeys(schema, STRING_KEYS)) return undefined;
  const { minLength, maxLength, format, default: dflt } = schema;
  if (minLength !== undefined && !count(minLength)) return undefined;
  if (maxLength !== undefined && !count(maxLength)) return undefined;
  if (format !== undefined && (typeof format !== 'string' || !FORMATS.has(format))) return undefined;
  if (dflt !== undefined && typeof dflt !== 'string') return undefined;
  return {
    ...described(schema),
    type: 'string',
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(format === undefined ? {} : { format: format as FlatStringFormat }),
    ...(dflt === undefined ? {} : { default: dflt }),
  };
}

function numberField(schema: JsonObject, type: 'number' | 'integer'): FlatField | undefined {
  if (!onlyKeys(schema, NUMBER_KEYS)) return undefined;
  const { minimum, maximum, default: dflt } = schema;
  for (const v of [minimum, maximum, dflt])
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) return undefined;
  if (type === 'integer' && dflt !== undefined && !Number.isInteger(dflt)) return undefined;
  return {
    ...described(schema),
    type,
    ...(minimum === undefined ? {} : { minimum: minimum as number }),
    ...(maximum === undefined ? {} : { maximum: maximum as number }),
    ...(dflt === undefined ? {} : { default: dflt as number }),
  };
}

function arrayField(schema: JsonObject): FlatField | undefined {
  if (!onlyKeys(schema, ARRAY_KEYS)) return undefined;
  const items = schema['items'];
  // A multi-select picks each choice at most once, so the array's items must be unique.
  if (!isJsonObject(items) || schema['uniqueItems'] !== true) return undefined;
  if (!onlyKeys(items, new Set(['type', 'enum'])) || items['type'] !== 'string') return undefined;
  const anyOf = choicesOf(items['enum']);
  const { minItems, maxItems, default: dflt } = schema;
  if (
    anyOf === undefined ||
    (minItems !== undefined && !count(minItems)) ||
    (maxItems !== undefined && !count(maxItems))
  ) {
    return undefined;
  }
  if (dflt !== undefined && !(Array.isArray(dflt) && dflt.every((d) => anyOf.some((c) => c.const === d))))
    return undefined;
  return {
    ...described(schema),
    type: 'array',
    items: { anyOf },
    ...(minItems === undefined ? {} : { minItems }),
    ...(maxItems === undefined ? {} : { maxItems }),
    ...(dflt === undefined ? {} : { default: dflt as string[] }),
  };
}

/** The form field that says exactly what `schema` says, or undefined when a form cannot say it. */
export function flatFieldOf(schema: JsonValue | undefined): FlatField | undefined {
  if (!isJsonObject(schema) || !describedOk(schema)) return undefined;
  switch (schema['type']) {
    case 'string':
      return stringField(schema);
    case 'number':
    case 'integer':
      return numberField(schema, schema['type']);
    case 'boolean':
      if (!onlyKeys(schema, COMMON)) return undefined;
      if (schema['default'] !== undefined && typeof schema['default'] !== 'boolean') return undefined;
      return {
        ...described(schema),
        type: 'boolean',
        ...(typeof schema['default'] === 'boolean' ? { default: schema['default'] } : {}),
      };
    case 'array':
      return arrayField(schema);
    default:
      return undefined;
  }
}

/**
 * The form for a closed object schema whose every property is a flat field (`additionalProperties: false`, at most
 * {@link FLAT_FORM_LIMITS.fields} properties, no other keywords), or undefined.
 */
export function flatFormOf(schema: JsonValue | undefined): FlatForm | undefined {
  if (!isJsonObject(schema) || schema['type'] !== 'object' || !onlyKeys(schema, ROOT_KEYS)) return undefined;
  if (schema['additionalProperties'] !== false) return undefined;
  const properties = schema['properties'] ?? {};
  if (!isJsonObject(properties)) return undefined;
  const names = Object.keys(properties);
  if (names.length === 0 || names.length > FLAT_FORM_LIMITS.fields) return undefined;
  const required = schema['required'] ?? [];
  if (!Array.isArray(required) || !required.every((r): r is string => typeof r === 'string' && names.includes(r))) {
    return undefined;
  }
  const fields: Record<string, FlatField> = {};
  for (const name of names) {
    const field = flatFieldOf(properties[name]);
    if (field === undefined) return undefined;
    fields[name] = field;
  }
  return { type: 'object', properties: fields, required: [...new Set(required)] };
}

/** A form answer read back, or the first reason it is not one (names a field, never a value). */
export type FlatAnswer =
  { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly message: string };

function fieldAccepts(field: FlatField, value: unknown): boolean {
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string' || value.length > FLAT_FORM_LIMITS.textChars) return false;
      return !('oneOf' in field) || field.oneOf.some((c) => c.const === value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return (
        Array.isArray(value) &&
        new Set(value).size === value.length &&
        value.every((v) => typeof v === 'string' && field.items.anyOf.some((c) => c.const === v))
      );
  }
}

/** Reads a person's answer to `form`: known fields only, required ones present, each of its field's type. */
export function readFlatAnswer(form: FlatForm, content: unknown): FlatAnswer {
  if (!isJsonObject(content)) return { ok: false, message: 'the answer is not an object of form fields' };
  for (const name of Object.keys(content)) {
    if (!Object.hasOwn(form.properties, name)) return { ok: false, message: 'the answer has a field the form lacks' }; // the name is the caller's: never echoed
  }
  for (const name of form.required) {
    if (!Object.hasOwn(content, name)) return { ok: false, message: `the answer lacks the required field ${name}` };
  }
  const value: JsonObject = {};
  for (const [name, field] of Object.entries(form.properties)) {
    if (!Object.hasOwn(content, name)) continue;
    const answer = content[name];
    if (!fieldAccepts(field, answer))
      return { ok: false, message: `the answer to ${name} is not a valid ${field.type}` };
    value[name] = answer as JsonValue;
  }
  return { ok: true, value };
}

/** The form with `defaults` (a proposed object) filled in where each proposed value is one its field accepts. */
export function withDefaults(form: FlatForm, defaults: JsonObject): FlatForm {
  const properties: Record<string, FlatField> = {};
  for (const [name, field] of Object.entries(form.properties)) {
    const proposed = defaults[name];
    properties[name] =
      proposed !== undefined && fieldAccepts(field, proposed) ? ({ ...field, default: proposed } as FlatField) : field;
  }
  return { ...form, properties };
}
