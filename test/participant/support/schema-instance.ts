/**
 * A minimal valid instance of a JSON Schema, for artifacts whose id the test agent has no hand-written body for (a
 * newer packaged release may declare new ones): required properties only, the first enum value or anyOf branch,
 * minItems items, strings that match the pattern from a few candidates. The server's own schema check is what
 * decides; this only has to produce one instance it accepts.
 */
import type { JsonObject, JsonValue } from '../../../src/core/index.js';

const CANDIDATES = [
  'E1',
  'C1',
  'S1',
  'kafka',
  'a',
  'x-1',
  '2026-11-02',
  '2026-11-02T09:00:00Z',
  'https://example.org/a',
  '1.0.0',
  'abc',
];

function resolveRef(root: JsonObject, ref: string): JsonObject {
  const path = ref.replace(/^#\//, '').split('/');
  let node: JsonValue = root;
  for (const part of path) node = (node as JsonObject)[part] as JsonValue;
  return node as JsonObject;
}

function stringFor(schema: JsonObject): string {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 1;
  const pattern = typeof schema['pattern'] === 'string' ? new RegExp(schema['pattern'], 'u') : undefined;
  const format = schema['format'];
  const pool =
    format === 'date'
      ? ['2026-11-02']
      : format === 'date-time'
        ? ['2026-11-02T09:00:00Z']
        : format === 'uri'
          ? ['https://example.org/a']
          : CANDIDATES;
  for (const c of pool) {
    const padded = c.length >= min ? c : c + 'x'.repeat(min - c.length);
    if (pattern === undefined || pattern.test(padded)) return padded;
  }
  return 'a'.repeat(min);
}

/** One instance of `schema` (within `root` for local $refs). */
export function instanceOf(schema: JsonObject, root: JsonObject = schema): JsonValue {
  if (typeof schema['$ref'] === 'string') return instanceOf(resolveRef(root, schema['$ref']), root);
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum'])) return schema['enum'][0] as JsonValue;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return instanceOf(options[0] as JsonObject, root);
  }
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  switch (type) {
    case 'object': {
      const properties = (schema['properties'] ?? {}) as JsonObject;
      const out: JsonObject = {};
      for (const name of (schema['required'] ?? []) as string[]) {
        out[name] = instanceOf((properties[name] ?? {}) as JsonObject, root);
      }
      return out;
    }
    case 'array': {
      const count = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const items = (schema['items'] ?? {}) as JsonObject;
      return Array.from({ length: count }, () => instanceOf(items, root));
    }
    case 'integer':
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringFor(schema);
  }
}
