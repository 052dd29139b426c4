/**
 * Every schema entry must pass the JSON Schema 2020-12 meta-schema and compile in strict mode, and must not use an id
 * the protocol publishes its own contracts under.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { checkSchemaDocument } from '../../core/index.js';
import { ajv2020 } from '../../core/schema.js';
import type { JsonObject } from '../../core/index.js';
import { ProblemCode, entryKey, quoted } from '../problems.js';
import type { Path } from '../problems.js';
import { PROTOCOL_SCHEMA_IDS } from '../reserved-schema-ids.js';
import type { Checker } from './context.js';

let locator: Ajv2020 | undefined;

/**
 * Where in the schema document the meta-schema check failed (from Ajv's instance path, which points into the
 * authored schema, never into participant data); the document root when unknown.
 */
function failingPointer(schema: JsonObject): Path {
  locator ??= new (ajv2020())({ strict: true, allErrors: false, logger: false });
  try {
    if (locator.validateSchema(schema) === true) return [];
  } catch {
    return [];
  }
  const pointer = locator.errors?.[0]?.instancePath ?? '';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Meta-checks every schema; reports the first failing keyword at the line it comes from. */
export function checkSchemas(c: Checker): void {
  for (const entry of c.content.schemas) {
    if (PROTOCOL_SCHEMA_IDS.has(entry.id)) {
      c.report(
        entryKey('schema', entry.id, entry.version),
        [],
        ProblemCode.SchemaIdReserved,
        `schema id ${quoted(entry.id)} is reserved for a protocol contract served at the same resource URI`,
      );
    }
    const check = checkSchemaDocument(entry.schema);
    if (check.ok) continue;
    const issue = check.issues[0];
    const where = issue === undefined ? '' : ` (keyword ${quoted(issue.keyword)} at ${quoted(issue.schemaPath)})`;
    c.report(
      entryKey('schema', entry.id, entry.version),
      ['schema', ...failingPointer(entry.schema)],
      ProblemCode.SchemaInvalid,
      `schema is not a valid strict JSON Schema 2020-12 document${where}`,
    );
  }
}
