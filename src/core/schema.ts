import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { RimthanError } from './errors.js';
import type { JsonObject } from './json.js';

/** Where a value broke a schema: the keyword and the schema path only, never the value or Ajv's message. */
export interface SchemaIssue {
  readonly keyword: string;
  readonly schemaPath: string;
}

export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };
export type CompiledSchema = (value: unknown) => SchemaCheck;

const OK: SchemaCheck = Object.freeze({ ok: true });

function newAjv(): Ajv2020 {
  // strict: unknown keywords and formats are authoring errors; ownProperties: inherited members never satisfy
  // `required`; allErrors off (Ajv's own security advice); $data stays off (ReDoS advisory).
  return new Ajv2020({ strict: true, ownProperties: true, allErrors: false, addUsedSchema: false, $data: false });
}

function issuesOf(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((e) => ({ keyword: e.keyword, schemaPath: e.schemaPath }));
}

// One Ajv instance serves every compiler and document check: building an Ajv with the 2020-12 meta-schemas costs
// ~90 ms, which would otherwise dominate catalog registration and release loading. `addUsedSchema: false` keeps
// schemas that carry an `$id` from colliding across releases.
const sharedAjv = newAjv();

/** JSON Schema 2020-12 compiler. Compile each schema once (per release or definition) and reuse the function. */
export class SchemaCompiler {
  readonly #ajv = sharedAjv;

  /** Compiles a schema; a schema Ajv refuses in strict mode throws RimthanError('invalid_schema'). */
  compile(schema: JsonObject): CompiledSchema {
    let validate: ValidateFunction;
    try {
      validate = this.#ajv.compile(schema);
    } catch (cause) {
      throw new RimthanError('invalid_schema', 'schema does not compile under strict JSON Schema 2020-12', { cause });
    }
    return (value: unknown) => (validate(value) ? OK : { ok: false, issues: issuesOf(validate.errors) });
  }
}

const metaAjv = sharedAjv;

/** Checks a schema document against the 2020-12 meta-schema and compiles it in strict mode. */
export function checkSchemaDocument(schema: unknown): SchemaCheck {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, issues: [{ keyword: 'type', schemaPath: '#' }] };
  }
  const valid = metaAjv.validateSchema(schema);
  if (valid !== true) return { ok: false, issues: issuesOf(metaAjv.errors) };
  try {
    metaAjv.compile(schema as JsonObject);
  } catch {
    return { ok: false, issues: [{ keyword: 'strict', schemaPath: '#' }] };
  } finally {
    metaAjv.removeSchema(schema);
  }
  return OK;
}
