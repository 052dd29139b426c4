/**
 * The definition catalog: code-defined flows registered once, checked and compiled at registration (a schema Rimthan
 * ships, the example flow's, on its first use: core/shipped-schemas.ts), then resolved by exact name@version (a run
 * pins the version it started with).
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { SchemaCompiler, type CompiledSchema, type SchemaCheck } from '../../core/schema.js';
import { checkFlowSchema } from './check-schema.js';
import { compileConcurrency, type CompiledConcurrency } from './concurrency.js';
import { compileGraph, VERTEX_ID_PATTERN, type CompiledGraph } from './graph.js';
import { compileSchedules, type CompiledSchedule } from './schedules.js';
import type { FlowSpec } from './types.js';

export const FLOW_NAME_PATTERN = /^[a-z][a-z0-9_]{2,63}$/;
export const MAX_VERSION_BYTES = 64;
export const MAX_DESCRIPTION_BYTES = 256;

/** A registered, checked flow. Schemas are frozen copies; validators were compiled once at registration. */
export interface FlowDefinition {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly resumeSchema?: JsonObject;
  /** True when the flow declares a resume schema (runs of it can be resumed). */
  readonly resumeSupported: boolean;
  /** Checks a run input against the input schema (issues carry keyword and schema path only). */
  validateInput(value: unknown): SchemaCheck;
  /** Checks a resume payload; a flow without resume schema refuses every payload (keyword `resumeSchema`). */
  validateResume(value: unknown): SchemaCheck;
  /** The state a run starts with. */
  initialState(input: JsonObject): JsonObject;
  readonly graph: CompiledGraph;
  /** Checks a flow state against stateSchema; a flow without one accepts any object (the engine bounds its size). */
  validateState(value: unknown): SchemaCheck;
  /** Older versions this one can take over, by version (see UpgradeSpec). */
  readonly upgrades: ReadonlyMap<string, CompiledUpgrade>;
  /** Its concurrency limit (FlowSpec.concurrency), or undefined when its runs are not limited. */
  readonly concurrency?: CompiledConcurrency;
  /** Its cron schedules, by id (flow/schedules.ts); only the latest registered version of a name runs them. */
  readonly schedules: ReadonlyMap<string, CompiledSchedule>;
}

/** A checked upgrade declaration. */
export interface CompiledUpgrade {
  readonly from: string;
  readonly vertices: ReadonlyMap<string, string>;
  readonly state: ((previous: JsonObject) => JsonObject) | undefined;
}

const ANY_STATE: SchemaCheck = Object.freeze({ ok: true });

function compileUpgrades(spec: FlowSpec<JsonObject, JsonObject>, graph: CompiledGraph): Map<string, CompiledUpgrade> {
  const out = new Map<string, CompiledUpgrade>();
  const list: unknown = spec.upgrades ?? [];
  if (!Array.isArray(list) || list.length > 64) throw invalid('upgrades must be an array of at most 64 declarations');
  if (list.length > 0 && spec.stateSchema === undefined) {
    throw invalid('a flow that declares upgrades must declare a stateSchema to check the carried-over state against');
  }
  for (const u of spec.upgrades ?? []) {
    if (typeof u.from !== 'string' || u.from.length === 0 || Buffer.byteLength(u.from) > MAX_VERSION_BYTES) {
      throw invalid('an upgrade names the older version it takes over from');
    }
    if (u.from === spec.version) throw invalid('a version cannot declare an upgrade from itself');
    if (out.has(u.from)) throw invalid(`two upgrades from version ${u.from}`);
    if (u.state !== undefined && typeof u.state !== 'function') throw invalid('an upgrade state must be a function');
    const vertices = new Map<string, string>();
    for (const [from, to] of Object.entries(u.vertices ?? {})) {
      if (!VERTEX_ID_PATTERN.test(from))
        throw invalid(`upgrade from ${u.from}: vertex id ${JSON.stringify(from)} is invalid`);
      if (!graph.vertices.has(to)) throw invalid(`upgrade from ${u.from}: ${to} is not a vertex of this version`);
      vertices.set(from, to);
    }
    if (vertices.size === 0) throw invalid(`upgrade from ${u.from} maps no vertex`);
    out.set(u.from, { from: u.from, vertices, state: u.state });
  }
  return out;
}

const NO_RESUME: SchemaCheck = Object.freeze({
  ok: false,
  issues: [Object.freeze({ keyword: 'resumeSchema', schemaPath: '#' })],
});

function invalid(message: string): RimthanError {
  return new RimthanError('invalid_definition', message);
}

function checkIdentity(spec: FlowSpec<JsonObject, JsonObject>): void {
  if (typeof spec !== 'object' || spec === null) throw invalid('a flow definition must be an object');
  if (typeof spec.name !== 'string' || !FLOW_NAME_PATTERN.test(spec.name)) {
    throw invalid('flow name must match ^[a-z][a-z0-9_]{2,63}$');
  }
  if (typeof spec.version !== 'string' || spec.version.length === 0) throw invalid('flow version must not be empty');
  if (Buffer.byteLength(spec.version) > MAX_VERSION_BYTES || /\p{Cc}/u.test(spec.version)) {
    throw invalid(`flow version must be at most ${MAX_VERSION_BYTES} bytes without control characters`);
  }
  if (typeof spec.description !== 'string' || Buffer.byteLength(spec.description) > MAX_DESCRIPTION_BYTES) {
    throw invalid(`flow description must be a string of at most ${MAX_DESCRIPTION_BYTES} bytes`);
  }
  if (spec.initialState !== undefined && typeof spec.initialState !== 'function') {
    throw invalid('initialState must be a function');
  }
}

function compileDefinition(compiler: SchemaCompiler, spec: FlowSpec<JsonObject, JsonObject>): FlowDefinition {
  checkIdentity(spec);
  const inputSchema = checkFlowSchema('inputSchema', spec.inputSchema);
  const resumeSchema = spec.resumeSchema === undefined ? undefined : checkFlowSchema('resumeSchema', spec.resumeSchema);
  const stateSchema = spec.stateSchema === undefined ? undefined : checkFlowSchema('stateSchema', spec.stateSchema);
  const graph = compileGraph(spec.graph);
  const upgrades = compileUpgrades(spec, graph);
  const concurrency = compileConcurrency(spec.concurrency);
  let validateInput: CompiledSchema;
  let validateResume: CompiledSchema = () => NO_RESUME;
  let validateState: CompiledSchema = () => ANY_STATE;
  try {
    validateInput = compiler.compileOrDefer(inputSchema);
    if (resumeSchema !== undefined) validateResume = compiler.compileOrDefer(resumeSchema);
    if (stateSchema !== undefined) validateState = compiler.compileOrDefer(stateSchema);
  } catch (cause) {
    throw new RimthanError('invalid_definition', 'a flow schema does not compile', { cause });
  }
  const schedules = compileSchedules(spec.schedules, validateInput);
  const init = spec.initialState;
  return Object.freeze({
    name: spec.name,
    version: spec.version,
    description: spec.description,
    inputSchema,
    ...(resumeSchema === undefined ? {} : { resumeSchema }),
    resumeSupported: resumeSchema !== undefined,
    validateInput,
    validateResume,
    initialState: (input: JsonObject): JsonObject => (init === undefined ? input : init(input)),
    graph,
    validateState,
    upgrades,
    ...(concurrency === undefined ? {} : { concurrency }),
    schedules,
  });
}

function keyOf(name: string, version: string): string {
  return `${name}@${version}`;
}

/** Holds the registered flows of one process. */
export class FlowCatalog {
  readonly #compiler = new SchemaCompiler();
  readonly #byKey = new Map<string, FlowDefinition>();
  readonly #latest = new Map<string, FlowDefinition>();

  /**
   * Checks and compiles a flow, then makes it resolvable. Throws RimthanError('invalid_definition') for a bad flow and
   * RimthanError('duplicate_definition') when name@version is already registered.
   */
  register<I extends JsonObject, S extends JsonObject>(spec: FlowSpec<I, S>): FlowDefinition {
    const definition = compileDefinition(this.#compiler, spec as unknown as FlowSpec<JsonObject, JsonObject>);
    const key = keyOf(definition.name, definition.version);
    if (this.#byKey.has(key)) {
      throw new RimthanError('duplicate_definition', `flow ${key} is already registered`);
    }
    this.#byKey.set(key, definition);
    this.#latest.set(definition.name, definition);
    return definition;
  }

  /** The version of `name` registered last: the one whose schedules run (see ScheduleSpec). */
  latest(name: string): FlowDefinition | undefined {
    return this.#latest.get(name);
  }

  /** The flow registered under exactly name@version, or undefined. */
  resolve(name: string, version: string): FlowDefinition | undefined {
    return this.#byKey.get(keyOf(name, version));
  }

  /** Every registered flow, sorted by name then version (code-unit order, stable across runs). */
  list(): FlowDefinition[] {
    return [...this.#byKey.values()].sort((a, b) =>
      a.name === b.name ? compare(a.version, b.version) : compare(a.name, b.name),
    );
  }

  get size(): number {
    return this.#byKey.size;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
