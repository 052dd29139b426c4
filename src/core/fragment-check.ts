/**
 * Schema checks that validate an immutable fragment once. A tool result often embeds the same deep-frozen release
 * fragment on every call (a step payload of several kilobytes); its verdict against a fixed schema cannot change, so
 * re-validating it each time is pure waste. The check below validates such a member once per schema and identity and
 * every other member on every call, with exactly the verdict of the whole-schema check.
 */
import { isFrozenFragment } from './canonical-json.js';
import type { JsonObject } from './json.js';
import type { CompiledSchema, SchemaCheck, SchemaCompiler } from './schema.js';

const OK: SchemaCheck = Object.freeze({ ok: true });

/** Root keywords whose meaning is a plain conjunction over the object's own members. */
const MEMBERWISE_KEYWORDS = new Set([
  '$schema',
  '$comment',
  'title',
  'description',
  'type',
  'additionalProperties',
  'required',
  'properties',
  '$defs',
]);

/** Keywords that change what a reference resolves to. */
const REBASING_KEYWORDS = new Set([
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveRef',
  '$recursiveAnchor',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * True when every `$ref` in the schema points into the root's `$defs` and nothing rebases or re-anchors references:
 * then a member's subschema, lifted into its own document beside the same `$defs`, means what it meant in place.
 */
function referencesStayInDefs(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(referencesStayInDefs);
  if (!isRecord(node)) return true;
  for (const [key, member] of Object.entries(node)) {
    if (key === '$ref' && (typeof member !== 'string' || !member.startsWith('#/$defs/'))) return false;
    if (REBASING_KEYWORDS.has(key) || !referencesStayInDefs(member)) return false;
  }
  return true;
}

/** The member subschemas of a root that is a plain conjunction over its members, or undefined when it is not one. */
function memberwise(
  schema: JsonObject,
): { properties: Record<string, unknown>; closed: boolean; required: string[] } | undefined {
  if (schema['type'] !== 'object' || !Object.keys(schema).every((k) => MEMBERWISE_KEYWORDS.has(k))) return undefined;
  const properties = schema['properties'];
  const additional = schema['additionalProperties'];
  const required = schema['required'] ?? [];
  if (!isRecord(properties) || (additional !== undefined && additional !== false)) return undefined;
  if (!Array.isArray(required) || !required.every((r): r is string => typeof r === 'string')) return undefined;
  if (!referencesStayInDefs(schema)) return undefined;
  return { properties, closed: additional === false, required };
}

/**
 * The documents the member checks of {@link memoizeFrozenMembers} compile: each member's subschema lifted into its own
 * document beside the root's `$defs` (and `$schema`), by member name; undefined for a schema whose root is not a plain
 * conjunction over its members.
 */
export function memberDocuments(schema: JsonObject): Map<string, JsonObject> | undefined {
  const shape = memberwise(schema);
  if (shape === undefined) return undefined;
  const defs = schema['$defs'];
  const documents = new Map<string, JsonObject>();
  for (const [key, sub] of Object.entries(shape.properties)) {
    const document: JsonObject = typeof sub === 'boolean' ? (sub ? {} : { not: {} }) : { ...(sub as JsonObject) };
    if (schema['$schema'] !== undefined) document['$schema'] = schema['$schema'];
    if (defs !== undefined) document['$defs'] = defs;
    documents.set(key, document);
  }
  return documents;
}

/**
 * `full` (the compiled `schema`), answering from per-member checks when a value embeds a frozen fragment
 * ({@link isFrozenFragment}): each fragment is validated against its member's subschema once and remembered by identity,
 * every other member is validated on each call. Any refusal is answered by `full`, so issues keep their full schema
 * paths. Returns `full` itself for a schema whose root is not a plain conjunction over members (keywords outside
 * type/required/properties/additionalProperties: false, or references that leave `$defs`). Member documents Rimthan
 * ships are compiled on first use ({@link SchemaCompiler.compileOrDefer}).
 */
export function memoizeFrozenMembers(
  schema: JsonObject,
  compiler: SchemaCompiler,
  full: CompiledSchema,
): CompiledSchema {
  const shape = memberwise(schema);
  const documents = memberDocuments(schema);
  if (shape === undefined || documents === undefined) return full;
  const memberChecks = new Map<string, CompiledSchema>();
  for (const [key, document] of documents) memberChecks.set(key, compiler.compileOrDefer(document));
  const validated = new Map<string, WeakSet<object>>();
  const declared = Object.keys(shape.properties);
  const own = (value: Record<string, unknown>, key: string): boolean =>
    Object.prototype.hasOwnProperty.call(value, key);
  return (value: unknown) => {
    if (!isRecord(value)) return full(value);
    if (!declared.some((k) => own(value, k) && isFrozenFragment(value[k]))) return full(value);
    for (const required of shape.required) {
      if (!own(value, required) || value[required] === undefined) return full(value);
    }
    // additionalProperties looks at enumerable members; an unknown one is refused whatever its value.
    if (shape.closed && Object.keys(value).some((k) => !own(shape.properties, k))) return full(value);
    // properties looks at every own member it declares, enumerable or not (Ajv with ownProperties).
    for (const key of declared) {
      if (!own(value, key)) continue;
      const member = value[key];
      if (member === undefined) continue; // like `properties`, which skips a member whose value is undefined
      const frozen = isFrozenFragment(member);
      let seen: WeakSet<object> | undefined;
      if (frozen) {
        seen = validated.get(key);
        if (seen?.has(member)) continue;
      }
      if (!(memberChecks.get(key) as CompiledSchema)(member).ok) return full(value);
      if (frozen) {
        if (seen === undefined) validated.set(key, (seen = new WeakSet()));
        seen.add(member);
      }
    }
    return OK;
  };
}
