/**
 * Every authoring file's JSON Schema as the package ships it in schemas/authoring/: the source formats (beside the
 * registry's shape readers) and the scenario format (beside the scenario loader). scripts/write-authoring-schemas.mjs
 * writes these texts; a test checks the files on disk are exactly them.
 */
import type { JsonObject } from '../core/index.js';
import { SOURCE_SCHEMA_FILES } from '../registry/index.js';
import { SCENARIO_SCHEMA } from './scenario-json-schema.js';

/** Where the schemas ship, relative to the package root. */
export const AUTHORING_SCHEMA_DIR = 'schemas/authoring';

/** File name → schema, for every authoring file format. */
export const AUTHORING_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  ...SOURCE_SCHEMA_FILES,
  'scenario.schema.json': SCENARIO_SCHEMA,
};

/** The text of each schema file, as the script writes it (two-space JSON and a final newline), by file name. */
export function authoringSchemaTexts(): Map<string, string> {
  return new Map(
    Object.entries(AUTHORING_SCHEMAS)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, schema]) => [name, `${JSON.stringify(schema, null, 2)}\n`]),
  );
}
