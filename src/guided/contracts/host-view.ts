/**
 * The input schemas as a host shows them to its model. A coding-agent host sends the model each tool's name,
 * description and input schema on every request, and some hosts cut what they cannot use (Codex 0.169 keeps a
 * schema's shape only while it stays within 5,000 bytes, else it empties every property). So the listed input schema
 * is a view of the full contract that keeps what a model needs to shape a call (types, properties, required keys,
 * closed objects, enums, descriptions) and leaves to the server what only the server checks (lengths, patterns,
 * conditionals, uniqueness, the inner shape of what the model copies back unchanged).
 *
 * The view only ever removes constraints, so it accepts every call the full contract accepts; the server still
 * validates every call against the full contract (its verdicts do not change), which stays published as a versioned
 * schema resource.
 */
import type { JsonObject, JsonValue } from '../../core/index.js';

/** Keywords a model uses to shape a value; every other keyword is checked by the server only. */
const SHAPING = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
]);

export interface HostViewOptions {
  /**
   * Root properties the model copies back exactly as an earlier result or call had them (the signed checkpoint, the
   * confirmed state it binds, the validation bundle): shown as an object with the property's description, their
   * inner shape left to the server.
   */
  readonly copied: readonly string[];
  /** Descriptions kept only down to this depth of properties (the root's properties are depth 1). */
  readonly describedDepth: number;
}

/** The host view of a closed input schema with local `$defs` (see the module comment). */
export function hostView(schema: JsonObject, options: HostViewOptions): JsonObject {
  const defs = (schema['$defs'] ?? {}) as JsonObject;
  const walk = (node: JsonValue, depth: number, trail: readonly string[]): JsonObject => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return {};
    let own: JsonObject = node;
    const target = node['$ref'];
    if (typeof target === 'string' && target.startsWith('#/$defs/')) {
      const name = target.slice('#/$defs/'.length);
      const description = node['description'];
      if (trail.includes(name)) throw new Error(`host view: ${target} refers to itself`);
      own = { ...(defs[name] as JsonObject), ...(typeof description === 'string' ? { description } : {}) };
      return walk(own, depth, [...trail, name]);
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(own)) {
      if (!SHAPING.has(key)) continue;
      if (key === 'description' && depth > options.describedDepth) continue;
      if (key === 'properties') {
        out[key] = Object.fromEntries(
          Object.entries(value as JsonObject).map(([k, v]) => [
            k,
            depth === 0 && options.copied.includes(k) ? copiedView(v as JsonObject) : walk(v, depth + 1, trail),
          ]),
        );
      } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
        out[key] = walk(value, depth, trail);
      } else if (key === 'anyOf') {
        out[key] = (value as JsonValue[]).map((v) => walk(v, depth, trail));
      } else {
        out[key] = value;
      }
    }
    return out;
  };
  const copiedView = (node: JsonObject): JsonObject => {
    const description = node['description'];
    return typeof description === 'string' ? { type: 'object', description } : { type: 'object' };
  };
  return walk(schema, 0, []);
}
