/**
 * Graph integrity at registration: the start vertex and every static edge target exist (several edges from one vertex
 * fan out), retry, timeout, fan-out and error-route settings are sane, and vertices that can run in one parallel step
 * write no common state key without a reducer (parallel-check.ts). The result is the compiled graph the executor walks.
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { checkParallelWrites } from './parallel-check.js';
import type { GraphSpec, NextSpec, Reducer, RetryPolicy, VertexContext } from './types.js';

export const VERTEX_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;
export const GRAPH_LIMITS = {
  maxVertices: 1000,
  maxLabelBytes: 128,
  maxAttempts: 100,
  maxBackoffMs: 3_600_000,
  maxFactor: 10,
  maxTimeoutMs: 86_400_000,
  /** Items one `forEach` may fan out to (the per-vertex `maxItems` default is 64). */
  maxItems: 1000,
  defaultMaxItems: 64,
} as const;

export interface CompiledRetry {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly factor: number;
  readonly maxBackoffMs: number;
  readonly retryable: ((error: unknown) => boolean) | undefined;
}

/** A vertex with its types erased to JSON objects (the catalog holds flows of many state types). */
export interface CompiledVertex {
  readonly id: string;
  readonly label: string;
  readonly run: (ctx: VertexContext<JsonObject>) => Promise<JsonObject | void> | JsonObject | void;
  readonly retry: CompiledRetry;
  readonly timeoutMs: number | undefined;
  /** Every outgoing edge (static targets and conditional edges), in declaration order: `next` first, then `edges`. */
  readonly next: readonly NextSpec<JsonObject>[];
  /** The state keys it declared it writes (undefined: not declared). */
  readonly writes: ReadonlySet<string> | undefined;
  /** Dynamic fan-out over a list from the state, at most `maxItems` items. */
  readonly forEach: ((state: Readonly<JsonObject>) => readonly JsonValue[]) | undefined;
  readonly maxItems: number;
  /** The error-route handler vertex. */
  readonly onError: string | undefined;
  /** The vertices its conditional edges may choose (declared; undefined: any). */
  readonly targets: readonly string[] | undefined;
}

export interface CompiledGraph {
  readonly start: string;
  readonly vertices: ReadonlyMap<string, CompiledVertex>;
  /** Number of vertices (history entries report it as total_vertices). */
  readonly size: number;
  /** Per-key reducers (every write of such a key goes through its reducer). */
  readonly reducers: ReadonlyMap<string, Reducer<JsonValue>>;
}

const NO_RETRY: CompiledRetry = Object.freeze({
  attempts: 1,
  backoffMs: 0,
  factor: 1,
  maxBackoffMs: 0,
  retryable: undefined,
});

function invalid(message: string): RimthanError {
  return new RimthanError('invalid_definition', message);
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function compileRetry(id: string, retry: RetryPolicy | undefined): CompiledRetry {
  if (retry === undefined) return NO_RETRY;
  if (typeof retry !== 'object' || retry === null) throw invalid(`vertex ${id}: retry must be an object`);
  const { attempts, backoffMs } = retry;
  const factor = retry.factor ?? 2;
  const maxBackoffMs = retry.maxBackoffMs ?? GRAPH_LIMITS.maxBackoffMs;
  if (!isInt(attempts, 1, GRAPH_LIMITS.maxAttempts)) {
    throw invalid(`vertex ${id}: retry.attempts must be an integer 1..${GRAPH_LIMITS.maxAttempts}`);
  }
  if (!isInt(backoffMs, 0, GRAPH_LIMITS.maxBackoffMs)) {
    throw invalid(`vertex ${id}: retry.backoffMs must be an integer 0..${GRAPH_LIMITS.maxBackoffMs}`);
  }
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor < 1 || factor > GRAPH_LIMITS.maxFactor) {
    throw invalid(`vertex ${id}: retry.factor must be a number 1..${GRAPH_LIMITS.maxFactor}`);
  }
  if (!isInt(maxBackoffMs, 0, GRAPH_LIMITS.maxBackoffMs)) {
    throw invalid(`vertex ${id}: retry.maxBackoffMs must be an integer 0..${GRAPH_LIMITS.maxBackoffMs}`);
  }
  const retryable = retry.retryable;
  if (retryable !== undefined && typeof retryable !== 'function') {
    throw invalid(`vertex ${id}: retry.retryable must be a function`);
  }
  return Object.freeze({ attempts, backoffMs, factor, maxBackoffMs, retryable });
}

/** Checks one edge spec: a function, or vertex ids of the graph (each named once per vertex). */
function checkNext(id: string, next: unknown, ids: ReadonlySet<string>, seen: Set<string>): NextSpec<JsonObject> {
  if (typeof next === 'function') return next as NextSpec<JsonObject>;
  const targets: unknown[] = Array.isArray(next) ? next : [next];
  if (targets.length === 0) throw invalid(`vertex ${id}: next names no vertex of the graph`);
  for (const target of targets) {
    if (typeof target !== 'string' || !ids.has(target))
      throw invalid(`vertex ${id}: next names no vertex of the graph`);
    if (seen.has(target)) throw invalid(`vertex ${id} has two edges to ${target}`);
    seen.add(target);
  }
  return Array.isArray(next) ? Object.freeze([...(next as string[])]) : (next as string);
}

/** Checks declared conditional targets: ids of the graph, only beside a conditional edge. */
function checkTargets(
  id: string,
  targets: unknown,
  next: readonly NextSpec<JsonObject>[],
  ids: ReadonlySet<string>,
): readonly string[] | undefined {
  if (targets === undefined) return undefined;
  if (!next.some((n) => typeof n === 'function')) throw invalid(`vertex ${id}: targets needs a conditional next`);
  if (!Array.isArray(targets) || targets.length === 0 || targets.length > GRAPH_LIMITS.maxVertices) {
    throw invalid(`vertex ${id}: targets must be a non-empty array of vertex ids`);
  }
  for (const t of targets as unknown[]) {
    if (typeof t !== 'string' || !ids.has(t)) throw invalid(`vertex ${id}: targets names no vertex of the graph`);
  }
  return Object.freeze([...new Set(targets as string[])]);
}

function checkWrites(id: string, writes: unknown): ReadonlySet<string> | undefined {
  if (writes === undefined) return undefined;
  if (!Array.isArray(writes) || !writes.every((k) => typeof k === 'string' && k.length > 0 && k.length <= 256)) {
    throw invalid(`vertex ${id}: writes must be an array of state keys`);
  }
  return new Set(writes as string[]);
}

function checkFanOut(id: string, forEach: unknown, maxItems: unknown): number {
  if (forEach !== undefined && typeof forEach !== 'function') throw invalid(`vertex ${id}: forEach must be a function`);
  const max = maxItems ?? GRAPH_LIMITS.defaultMaxItems;
  if (!isInt(max, 1, GRAPH_LIMITS.maxItems)) {
    throw invalid(`vertex ${id}: maxItems must be an integer 1..${GRAPH_LIMITS.maxItems}`);
  }
  return max;
}

function checkReducers(reducers: unknown): Map<string, Reducer<JsonValue>> {
  const out = new Map<string, Reducer<JsonValue>>();
  if (reducers === undefined) return out;
  if (typeof reducers !== 'object' || reducers === null) throw invalid('graph.reducers must be an object');
  for (const [key, fn] of Object.entries(reducers)) {
    if (typeof fn !== 'function') throw invalid(`the reducer of state key ${key} must be a function`);
    out.set(key, fn as Reducer<JsonValue>);
  }
  return out;
}

/** Checks the graph of a flow and compiles it; throws RimthanError('invalid_definition'). */
export function compileGraph(graph: GraphSpec<JsonObject>): CompiledGraph {
  if (typeof graph !== 'object' || graph === null) throw invalid('graph must be an object');
  const specs = graph.vertices;
  if (typeof specs !== 'object' || specs === null) throw invalid('graph.vertices must be an object');
  const ids = new Set(Object.keys(specs));
  if (ids.size === 0) throw invalid('graph has no vertices');
  if (ids.size > GRAPH_LIMITS.maxVertices) throw invalid(`graph has more than ${GRAPH_LIMITS.maxVertices} vertices`);
  for (const id of ids) if (!VERTEX_ID_PATTERN.test(id)) throw invalid(`vertex id ${JSON.stringify(id)} is invalid`);
  if (typeof graph.start !== 'string' || !ids.has(graph.start)) throw invalid('graph.start names no vertex');

  const nextOf = new Map<string, unknown[]>();
  for (const id of ids) {
    const next = specs[id]?.next;
    nextOf.set(id, next === undefined ? [] : [next]);
  }
  const edges: unknown = graph.edges ?? [];
  if (!Array.isArray(edges)) throw invalid('graph.edges must be an array');
  for (const edge of edges as unknown[]) {
    const { from, to } = (typeof edge === 'object' && edge !== null ? edge : {}) as { from?: unknown; to?: unknown };
    if (typeof from !== 'string' || !ids.has(from)) throw invalid('an edge starts at no vertex of the graph');
    nextOf.get(from)?.push(to ?? null);
  }

  const vertices = new Map<string, CompiledVertex>();
  for (const id of ids) {
    const spec = specs[id];
    if (typeof spec !== 'object' || spec === null) throw invalid(`vertex ${id} must be an object`);
    if (typeof spec.run !== 'function') throw invalid(`vertex ${id}: run must be a function`);
    const label = spec.label ?? id;
    if (typeof label !== 'string' || label.length === 0 || Buffer.byteLength(label) > GRAPH_LIMITS.maxLabelBytes) {
      throw invalid(`vertex ${id}: label must be 1..${GRAPH_LIMITS.maxLabelBytes} bytes`);
    }
    if (spec.timeoutMs !== undefined && !isInt(spec.timeoutMs, 1, GRAPH_LIMITS.maxTimeoutMs)) {
      throw invalid(`vertex ${id}: timeoutMs must be an integer 1..${GRAPH_LIMITS.maxTimeoutMs}`);
    }
    if (spec.onError !== undefined && (typeof spec.onError !== 'string' || !ids.has(spec.onError))) {
      throw invalid(`vertex ${id}: onError names no vertex of the graph`);
    }
    if (spec.onError === id) throw invalid(`vertex ${id}: onError cannot name the vertex itself`);
    const seen = new Set<string>();
    const next = Object.freeze((nextOf.get(id) ?? []).map((n) => checkNext(id, n, ids, seen)));
    vertices.set(
      id,
      Object.freeze({
        id,
        label,
        run: spec.run as CompiledVertex['run'],
        retry: compileRetry(id, spec.retry),
        timeoutMs: spec.timeoutMs,
        next,
        writes: checkWrites(id, spec.writes),
        forEach: spec.forEach,
        maxItems: checkFanOut(id, spec.forEach, spec.maxItems),
        onError: spec.onError,
        targets: checkTargets(id, spec.targets, next, ids),
      }),
    );
  }
  const compiled: CompiledGraph = Object.freeze({
    start: graph.start,
    vertices,
    size: vertices.size,
    reducers: checkReducers(graph.reducers),
  });
  const conflict = checkParallelWrites(compiled);
  if (conflict !== undefined) throw invalid(conflict);
  return compiled;
}

/** The next step's vertices after one vertex, or why its edge failed. */
export type NextResult = { ok: true; next: readonly string[] } | { ok: false; reason: 'edge_threw' | 'unknown_target' };

/**
 * Where control goes after `vertex` given the merged state: the vertex ids of the next step (none: this path ends),
 * in edge declaration order without repeats, or why an edge failed.
 */
export function resolveNext(graph: CompiledGraph, vertex: CompiledVertex, state: Readonly<JsonObject>): NextResult {
  const out: string[] = [];
  for (const edge of vertex.next) {
    let target: unknown;
    if (typeof edge === 'function') {
      try {
        target = edge(state);
      } catch {
        return { ok: false, reason: 'edge_threw' };
      }
    } else {
      target = edge;
    }
    if (target === undefined) continue;
    const targets: unknown[] = Array.isArray(target) ? (target as unknown[]) : [target];
    for (const t of targets) {
      if (typeof t !== 'string' || !graph.vertices.has(t)) return { ok: false, reason: 'unknown_target' };
      if (typeof edge === 'function' && vertex.targets !== undefined && !vertex.targets.includes(t)) {
        return { ok: false, reason: 'unknown_target' };
      }
      if (!out.includes(t)) out.push(t);
    }
  }
  return { ok: true, next: out };
}
