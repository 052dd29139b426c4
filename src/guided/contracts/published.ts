/**
 * Named shapes and how documents embed them. Every shape a contract uses more than once is declared once, as a named
 * `$defs` entry (`define` for a leaf, `publish` for a shape also served on its own), and used by `$ref`. A document's
 * `$defs` hold exactly the named shapes it reaches, as the very objects declared here, so a tool contract and a served
 * schema can never drift. Embedded shapes carry neither `$schema` nor `title`; a published document carries both at its
 * root only.
 */
import type { JsonObject, JsonValue } from '../../core/index.js';

/**
 * The version of the guided contracts the tools use and the schema resources publish. A published version's documents
 * never change: any change to a contract is a new version, and the earlier versions stay served byte for byte
 * (1.0.0: published-1.0.0.ts). 1.1.0: host assets and the host adapter after setup are references (`content`
 * optional).
 */
export const CONTRACT_VERSION = '1.1.0';
export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** A named shape: a `$defs` entry of every document that reaches it. */
export interface NamedShape {
  readonly name: string;
  readonly shape: JsonObject;
}

export interface PublishedSchema {
  readonly id: string;
  readonly version: string;
  /** The standalone document served at rimthan://registry/{release}/schemas/{id}/{version}. */
  readonly schema: JsonObject;
  /** The shape as embedded (the same object the `$defs` of every document reaching it holds). */
  readonly shape: JsonObject;
}

const named = new Map<string, JsonObject>();

/** Declares a named shape; refused twice (one name, one shape). */
export function define(name: string, shape: JsonObject): NamedShape {
  if (named.has(name)) throw new Error(`shape ${name} is declared twice`);
  named.set(name, shape);
  return { name, shape };
}

/** `{ $ref }` to a named shape, with a one-line `description` of what it holds at this place. */
export function ref(def: NamedShape | PublishedSchema, description?: string): JsonObject {
  const name = 'name' in def ? def.name : def.id;
  return description === undefined ? { $ref: `#/$defs/${name}` } : { $ref: `#/$defs/${name}`, description };
}

/** `null` or a named shape. */
export function nullableRef(def: NamedShape | PublishedSchema): JsonObject {
  return { anyOf: [{ type: 'null' }, ref(def)] };
}

/** `schema` with a one-line `description`. */
export function described(description: string, schema: JsonObject): JsonObject {
  return { ...schema, description };
}

function collectRefs(value: JsonValue, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into);
  } else if (value !== null && typeof value === 'object') {
    const target = value['$ref'];
    if (typeof target === 'string' && target.startsWith('#/$defs/')) into.add(target.slice('#/$defs/'.length));
    for (const child of Object.values(value)) collectRefs(child, into);
  }
}

/** The `$defs` a document with this body needs: every named shape it reaches, directly or through another, by name. */
export function defsFor(body: JsonObject): JsonObject {
  const reached = new Set<string>();
  const pending = new Set<string>();
  collectRefs(body, pending);
  while (pending.size > 0) {
    const [name] = pending;
    if (name === undefined) break;
    pending.delete(name);
    if (reached.has(name)) continue;
    const shape = named.get(name);
    if (shape === undefined) throw new Error(`a contract references the undeclared shape ${name}`);
    reached.add(name);
    collectRefs(shape, pending);
  }
  const $defs: JsonObject = {};
  for (const name of [...reached].sort()) $defs[name] = named.get(name) as JsonObject;
  return $defs;
}

/** A standalone document: dialect, title, the body, and the `$defs` it reaches (when it reaches any). */
export function document(title: string, body: JsonObject): JsonObject {
  const $defs = defsFor(body);
  return Object.keys($defs).length === 0
    ? { $schema: SCHEMA_DIALECT, title, ...body }
    : { $schema: SCHEMA_DIALECT, title, ...body, $defs };
}

/**
 * Declares a shared shape that is also served on its own. The standalone document is built on first use (its `$defs`
 * may reach shapes declared after it), so read `schema` only once every module has loaded.
 */
export function publish(id: string, title: string, shape: JsonObject): PublishedSchema {
  define(id, shape);
  let schema: JsonObject | undefined;
  return {
    id,
    version: CONTRACT_VERSION,
    get schema() {
      schema ??= document(title, shape);
      return schema;
    },
    shape,
  };
}
