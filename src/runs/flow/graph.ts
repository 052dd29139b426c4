/**
 * Graph integrity at registration: the start vertex and every static edge target exist, each vertex has at most one
 * outgoing edge, retry and timeout settings are sane. The result is the compiled graph the executor walks.
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { GraphSpec, NextSpec, RetryPolicy, VertexContext } from './types.js';

export const VERTEX_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;
export const GRAPH_LIMITS = {
  maxVertices: 1000,
  maxLabelBytes: 128,
  maxAttempts: 100,
  maxBackoffMs: 3_600_000,
  maxFactor: 10,
  maxTimeoutMs: 86_400_000,
} as const;

export interface CompiledRetry {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly factor: number;
  readonly maxBackoffMs: number;
}

/** A vertex with its types erased to JSON objects (the catalog holds flows of many state types). */
export interface CompiledVertex {
  readonly id: string;
  readonly label: string;
  readonly run: (ctx: VertexContext<JsonObject>) => Promise<JsonObject | void> | JsonObject | void;
  readonly retry: CompiledRetry;
  readonly timeoutMs: number | undefined;
  readonly next: NextSpec<JsonObject> | undefined;
}

export interface CompiledGraph {
  readonly start: string;
  readonly vertices: ReadonlyMap<string, CompiledVertex>;
  /** Number of vertices (history entries report it as total_vertices). */
  readonly size: number;
}

const NO_RETRY: CompiledRetry = Object.freeze({ attempts: 1, backoffMs: 0, factor: 1, maxBackoffMs: 0 });

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
  return Object.freeze({ attempts, backoffMs, factor, maxBackoffMs });
}

function checkNext(id: string, next: unknown, ids: ReadonlySet<string>): NextSpec<JsonObject> | undefined {
  if (next === undefined || typeof next === 'function') return next as NextSpec<JsonObject> | undefined;
  if (typeof next !== 'string' || !ids.has(next)) throw invalid(`vertex ${id}: next names no vertex of the graph`);
  return next;
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

  const nextOf = new Map<string, unknown>();
  for (const id of ids) {
    const next = specs[id]?.next;
    if (next !== undefined) nextOf.set(id, next);
  }
  const edges: unknown = graph.edges ?? [];
  if (!Array.isArray(edges)) throw invalid('graph.edges must be an array');
  for (const edge of edges as unknown[]) {
    const { from, to } = (typeof edge === 'object' && edge !== null ? edge : {}) as { from?: unknown; to?: unknown };
    if (typeof from !== 'string' || !ids.has(from)) throw invalid('an edge starts at no vertex of the graph');
    if (nextOf.has(from)) throw invalid(`vertex ${from} has more than one outgoing edge`);
    nextOf.set(from, to ?? null);
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
    vertices.set(
      id,
      Object.freeze({
        id,
        label,
        run: spec.run as CompiledVertex['run'],
        retry: compileRetry(id, spec.retry),
        timeoutMs: spec.timeoutMs,
        next: checkNext(id, nextOf.get(id), ids),
      }),
    );
  }
  return Object.freeze({ start: graph.start, vertices, size: vertices.size });
}

/** Where control goes after `vertex` given the merged state: a vertex id, null for the end, or an error code. */
export function resolveNext(
  graph: CompiledGraph,
  vertex: CompiledVertex,
  state: Readonly<JsonObject>,
): { ok: true; next: string | null } | { ok: false; reason: 'edge_threw' | 'unknown_target' } {
  let target: string | undefined;
  if (typeof vertex.next === 'function') {
    try {
      target = vertex.next(state);
    } catch {
      return { ok: false, reason: 'edge_threw' };
    }
  } else {
    target = vertex.next;
  }
  if (target === undefined) return { ok: true, next: null };
  if (typeof target !== 'string' || !graph.vertices.has(target)) return { ok: false, reason: 'unknown_target' };
  return { ok: true, next: target };
}
