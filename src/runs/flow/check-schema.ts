/**
 * Registration-time checks of a flow's input and resume schemas: JSON Schema 2020-12 (meta-schema and strict compile),
 * a closed object at the root, only local `#` references, bounded size and depth.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { RimthanError } from '../../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';
import { checkSchemaDocument } from '../../core/schema.js';

export const MAX_SCHEMA_BYTES = 256 * 1024;
export const MAX_SCHEMA_DEPTH = 32;

function invalid(message: string): RimthanError {
  return new RimthanError('invalid_definition', message);
}

function depthOf(value: JsonValue, depth = 0): number {
  if (depth > MAX_SCHEMA_DEPTH) return depth;
  let max = depth;
  const children = Array.isArray(value) ? value : isJsonObject(value) ? Object.values(value) : [];
  for (const child of children) max = Math.max(max, depthOf(child, depth + 1));
  return max;
}

/** Returns the JSON pointer of the first reference that leaves the document, or undefined when all are local. */
function firstNonLocalRef(value: JsonValue, pointer: string): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstNonLocalRef(item, `${pointer}/${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const here = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if ((key === '$ref' || key === '$dynamicRef') && typeof child === 'string') {
      if (key === '$dynamicRef' || !child.startsWith('#')) return here;
    }
    const found = firstNonLocalRef(child, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Checks one schema of a flow definition and returns a frozen private copy. Throws RimthanError('invalid_definition')
 * naming the field and the rule (never schema-external data).
 */
export function checkFlowSchema(field: string, schema: unknown): JsonObject {
  if (!isJsonObject(schema)) throw invalid(`${field} must be a JSON object`);
  let text: string;
  try {
    text = canonicalJson(schema);
  } catch (cause) {
    throw new RimthanError('invalid_definition', `${field} is not plain JSON`, { cause });
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_SCHEMA_BYTES) throw invalid(`${field} exceeds ${MAX_SCHEMA_BYTES} bytes`);
  const copy = JSON.parse(text) as JsonObject;
  if (depthOf(copy) > MAX_SCHEMA_DEPTH) throw invalid(`${field} nests deeper than ${MAX_SCHEMA_DEPTH}`);
  const check = checkSchemaDocument(copy);
  if (!check.ok) {
    const first = check.issues[0];
    const where = first === undefined ? '' : ` (${first.keyword} at ${first.schemaPath})`;
    throw invalid(`${field} is not a valid strict JSON Schema 2020-12 document${where}`);
  }
  if (copy['type'] !== 'object') throw invalid(`${field} must have root type "object"`);
  if (copy['additionalProperties'] !== false) throw invalid(`${field} must set root additionalProperties to false`);
  const ref = firstNonLocalRef(copy, '#');
  if (ref !== undefined) throw invalid(`${field} has a non-local reference at ${ref}`);
  return deepFreeze(copy);
}
