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

const silent = { log: (): void => undefined, warn: (): void => undefined, error: (): void => undefined };

function newAjv(unicodeLength = true, inlineRefs = true): Ajv2020 {
  // strict: unknown keywords and formats are authoring errors; ownProperties: inherited members never satisfy
  // `required`; allErrors off (Ajv's own security advice); $data stays off (ReDoS advisory).
  const base = { strict: true, ownProperties: true, allErrors: false, addUsedSchema: false, $data: false } as const;
  if (unicodeLength && inlineRefs) return new Ajv2020(base);
  // Ajv reports `unicode` as deprecated through its logger on construction; library code never prints, so these
  // instances log nothing (a strict-mode problem still throws). They also leave out Ajv's message texts, which a
  // SchemaCheck never carries (keyword and schema path only): smaller generated code, same verdicts and issues.
  return new Ajv2020({ ...base, unicode: unicodeLength, inlineRefs, messages: false, logger: silent });
}

function issuesOf(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((e) => ({ keyword: e.keyword, schemaPath: e.schemaPath }));
}

// One Ajv instance serves every compiler and document check: building an Ajv with the 2020-12 meta-schemas costs
// ~90 ms, which would otherwise dominate catalog registration and release loading. `addUsedSchema: false` keeps
// schemas that carry an `$id` from colliding across releases.
const sharedAjv = newAjv();

const variants = new Map<string, Ajv2020>();

export interface SchemaCompilerOptions {
  /**
   * true (default): `minLength`/`maxLength` count Unicode code points, as JSON Schema specifies. false: they count
   * UTF-16 code units, in constant time instead of a scan of the string. A string's code-unit count is never below its
   * code-point count, so a `maxLength` stays a limit (reached sooner by astral characters); the two modes agree on
   * every string without surrogates.
   */
  readonly unicodeLength?: boolean;
  /**
   * true (default): Ajv inlines referenced subschemas into one validating function. false: each `$ref` target gets its
   * own function. Same verdicts either way; large schemas with many `$defs` validate faster without inlining, because
   * an inlined function can grow past the size V8 optimises.
   */
  readonly inlineRefs?: boolean;
}

/** JSON Schema 2020-12 compiler. Compile each schema once (per release or definition) and reuse the function. */
export class SchemaCompiler {
  readonly #ajv: Ajv2020;

  constructor(options: SchemaCompilerOptions = {}) {
    const unicodeLength = options.unicodeLength !== false;
    const inlineRefs = options.inlineRefs !== false;
    if (unicodeLength && inlineRefs) {
      this.#ajv = sharedAjv;
      return;
    }
    // One instance per option set, built on first use (each costs what the shared one does).
    const key = `${unicodeLength}|${inlineRefs}`;
    let ajv = variants.get(key);
    if (ajv === undefined) {
      ajv = newAjv(unicodeLength, inlineRefs);
      variants.set(key, ajv);
    }
    this.#ajv = ajv;
  }

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
