/**
 * JSON Schema 2020-12 through Ajv (strict, own properties, no `$data`), with issues reduced to keyword and schema path.
 *
 * Start-up cost is kept off processes that do not validate yet: Ajv itself is loaded on the first compile or document
 * check (it is CommonJS, so a synchronous `require` does it), each Ajv instance is built on first use, and the schema
 * documents Rimthan ships (shipped-schemas.ts, verified by the test suite) are neither re-checked at every start nor
 * compiled before their first use ({@link SchemaCompiler.compileOrDefer}, {@link warmDeferredSchemas}).
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { digestJson } from './digest.js';
import { RimthanError } from './errors.js';
import type { JsonObject } from './json.js';
import { LruCache } from './lru.js';
import { shippedDigest, SHIPPED_SCHEMA_DIGESTS } from './shipped-schemas.js';

/** Where a value broke a schema: the keyword and the schema path only, never the value or Ajv's message. */
export interface SchemaIssue {
  readonly keyword: string;
  readonly schemaPath: string;
}

export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };
export type CompiledSchema = (value: unknown) => SchemaCheck;

const OK: SchemaCheck = Object.freeze({ ok: true });

const silent = { log: (): void => undefined, warn: (): void => undefined, error: (): void => undefined };

const requireModule = createRequire(import.meta.url);
let ajvClass: typeof Ajv2020 | undefined;

/** The Ajv 2020-12 class, loaded on first use (~100 ms of module loading a process that never validates skips). */
export function ajv2020(): typeof Ajv2020 {
  ajvClass ??= (requireModule('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020;
  return ajvClass;
}

function newAjv(unicodeLength = true, inlineRefs = true): Ajv2020 {
  const Ajv = ajv2020();
  // strict: unknown keywords and formats are authoring errors; ownProperties: inherited members never satisfy
  // `required`; allErrors off (Ajv's own security advice); $data stays off (ReDoS advisory).
  const base: Options = { strict: true, ownProperties: true, allErrors: false, addUsedSchema: false, $data: false };
  if (unicodeLength && inlineRefs) return new Ajv(base);
  // Ajv reports `unicode` as deprecated through its logger on construction; library code never prints, so these
  // instances log nothing (a strict-mode problem still throws). They also leave out Ajv's message texts, which a
  // SchemaCheck never carries (keyword and schema path only): smaller generated code, same verdicts and issues.
  return new Ajv({ ...base, unicode: unicodeLength, inlineRefs, messages: false, logger: silent });
}

function issuesOf(errors: ErrorObject[] | null | undefined): SchemaIssue[] {
  return (errors ?? []).map((e) => ({ keyword: e.keyword, schemaPath: e.schemaPath }));
}

// One Ajv instance per option set serves every compiler and document check: building an Ajv with the 2020-12
// meta-schemas costs ~90 ms, which would otherwise dominate catalog registration and release loading.
// `addUsedSchema: false` keeps schemas that carry an `$id` from colliding across releases.
const instances = new Map<string, Ajv2020>();

function ajvFor(unicodeLength: boolean, inlineRefs: boolean): Ajv2020 {
  const key = `${unicodeLength}|${inlineRefs}`;
  let ajv = instances.get(key);
  if (ajv === undefined) {
    ajv = newAjv(unicodeLength, inlineRefs);
    instances.set(key, ajv);
  }
  return ajv;
}

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

/** Compiles waiting for their first use, in the order they were deferred; see {@link warmDeferredSchemas}. */
const deferred = new Set<() => unknown>();

/**
 * The deferred check of each shipped document, per option set and document digest: every compiler of the same options
 * shares it, so the deferred compiles stay bounded (one per shipped document and option set) however many sessions,
 * profiles or copies ask for them.
 */
const deferredChecks = new Map<string, CompiledSchema>();

/** JSON Schema 2020-12 compiler. Compile each schema once (per release or definition) and reuse the function. */
export class SchemaCompiler {
  readonly #unicodeLength: boolean;
  readonly #inlineRefs: boolean;

  constructor(options: SchemaCompilerOptions = {}) {
    this.#unicodeLength = options.unicodeLength !== false;
    this.#inlineRefs = options.inlineRefs !== false;
  }

  /** Compiles a schema; a schema Ajv refuses in strict mode throws RimthanError('invalid_schema'). */
  compile(schema: JsonObject): CompiledSchema {
    let validate: ValidateFunction;
    try {
      validate = ajvFor(this.#unicodeLength, this.#inlineRefs).compile(schema);
    } catch (cause) {
      throw new RimthanError('invalid_schema', 'schema does not compile under strict JSON Schema 2020-12', { cause });
    }
    return (value: unknown) => (validate(value) ? OK : { ok: false, issues: issuesOf(validate.errors) });
  }

  /**
   * {@link compile}, deferred to the first check when `schema` is a document Rimthan ships (shipped-schemas.ts: the
   * test suite checks that each one is a valid strict 2020-12 document that compiles under every option set), so
   * that starting a process compiles none of them. Any other schema is compiled now, and a bad one throws now.
   */
  compileOrDefer(schema: JsonObject): CompiledSchema {
    const digest = shippedDigest(schema);
    if (digest === undefined) return this.compile(schema);
    const key = `${this.#unicodeLength}|${this.#inlineRefs}|${digest}`;
    let check = deferredChecks.get(key);
    if (check === undefined) {
      let compiled: CompiledSchema | undefined;
      const build = (): CompiledSchema => {
        deferred.delete(build);
        compiled ??= this.compile(schema);
        return compiled;
      };
      deferred.add(build);
      check = (value: unknown) => (compiled ?? build())(value);
      deferredChecks.set(key, check);
    }
    return check;
  }
}

/** The next turn of the event loop. */
function nextTurn(): Promise<boolean> {
  return new Promise((resolve) => setImmediate(() => resolve(true)));
}

/**
 * Does the compiles {@link SchemaCompiler.compileOrDefer} deferred, one at a time, each after `pause()` resolves (by
 * default the next turn of the event loop, so requests arriving meanwhile are answered in between; a server passes
 * its own idle wait), until none is left or `pause()` resolves false. Never rejects: a compile that fails is left to
 * its first use, which reports it. A server runs it once it is serving, so that the first call that validates does not
 * pay for the compile.
 */
export async function warmDeferredSchemas(pause: () => Promise<boolean> = nextTurn): Promise<void> {
  for (;;) {
    if (deferred.size === 0 || !(await pause())) return;
    const next = deferred.values().next();
    if (next.done === true) return;
    try {
      next.value();
    } catch {
      // left for the first use
    }
  }
}

/** The verdict of the full document check (meta-schema and strict compile); no shortcut. */
export function verifySchemaDocument(schema: JsonObject): SchemaCheck {
  const metaAjv = ajvFor(true, true);
  const valid = metaAjv.validateSchema(schema);
  if (valid !== true) return { ok: false, issues: issuesOf(metaAjv.errors) };
  try {
    metaAjv.compile(schema);
  } catch {
    return { ok: false, issues: [{ keyword: 'strict', schemaPath: '#' }] };
  } finally {
    metaAjv.removeSchema(schema);
  }
  return OK;
}

/** Verdicts of documents checked in this process, by the digest of their canonical form (bounded). */
const verdicts = new LruCache<string, SchemaCheck>(1024);

function digestOrUndefined(schema: object): string | undefined {
  try {
    return digestJson(schema);
  } catch {
    return undefined;
  }
}

function frozenVerdict(verdict: SchemaCheck): SchemaCheck {
  if (!verdict.ok) for (const issue of verdict.issues) Object.freeze(issue);
  return Object.freeze(verdict.ok ? verdict : { ok: false, issues: Object.freeze(verdict.issues) as SchemaIssue[] });
}

/**
 * Checks a schema document against the 2020-12 meta-schema and compiles it in strict mode. The verdict depends on the
 * document alone, so a shipped document (verified by the test suite) passes without the check, and a document equal
 * to one checked before in this process (two releases sharing their schemas) gets the verdict it got then.
 */
export function checkSchemaDocument(schema: unknown): SchemaCheck {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { ok: false, issues: [{ keyword: 'type', schemaPath: '#' }] };
  }
  const digest = digestOrUndefined(schema);
  if (digest === undefined) return verifySchemaDocument(schema as JsonObject);
  if (SHIPPED_SCHEMA_DIGESTS.has(digest)) return OK;
  let verdict = verdicts.get(digest);
  if (verdict === undefined) {
    verdict = frozenVerdict(verifySchemaDocument(schema as JsonObject));
    verdicts.set(digest, verdict);
  }
  return verdict;
}
