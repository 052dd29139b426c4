/**
 * A published schema: one JSON Schema 2020-12 document served at
 * rimthan://registry/{release}/schemas/{id}/{version} and embedded (the same object) in the tool contracts' `$defs`.
 */
import type { JsonObject } from '../../core/index.js';
import { SCHEMA_DIALECT } from './primitives.js';

export const CONTRACT_VERSION = '1.0.0';

export interface PublishedSchema {
  readonly id: string;
  readonly version: string;
  readonly schema: JsonObject;
  /** The shape without dialect and title, for embedding inline inside another published shape. */
  readonly shape: JsonObject;
}

/** Declares a shared shape as a standalone schema document (dialect + title + the shape itself). */
export function publish(id: string, title: string, shape: JsonObject): PublishedSchema {
  return { id, version: CONTRACT_VERSION, schema: { $schema: SCHEMA_DIALECT, title, ...shape }, shape };
}

/** A `$ref` to a published shape inside a tool schema's `$defs`. */
export function ref(def: PublishedSchema): JsonObject {
  return { $ref: `#/$defs/${def.id}` };
}

/** `null` or a published shape. */
export function nullableRef(def: PublishedSchema): JsonObject {
  return { anyOf: [{ type: 'null' }, ref(def)] };
}
