/**
 * The flows the flows suite runs: a vertex that sleeps (an hour, or until an instant, recording how late it woke), and
 * a parent that starts a one-vertex child against the same two vertices in one run.
 */
import { defineFlow } from '../../src/runs/index.js';
import type { JsonObject } from '../../src/core/json.js';

const schema = (properties: Record<string, JsonObject>): JsonObject => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

/** Sleeps `ms`; `onPass` hears every pass of the vertex (one per run while none wakes). */
export function sleeperFlow(onPass: () => void) {
  return defineFlow<{ ms: number }>({
    name: 'bench_sleeper',
    version: 'v1',
    description: 'sleeps',
    inputSchema: schema({ ms: { type: 'integer', minimum: 0 } }),
    graph: {
      start: 'nap',
      vertices: {
        nap: {
          run: async (ctx) => {
            onPass();
            await ctx.sleep(ctx.state.ms);
          },
        },
      },
    },
  });
}

/** Sleeps until `at` (ms since the epoch) and reports how late the vertex went on. */
export function alarmFlow(onWake: (latenessMs: number) => void, onFirstPass: () => void) {
  let seen = new Set<string>();
  return {
    reset: () => (seen = new Set<string>()),
    flow: defineFlow<{ at: number }>({
      name: 'bench_alarm',
      version: 'v1',
      description: 'wakes at an instant',
      inputSchema: schema({ at: { type: 'integer', minimum: 0 } }),
      graph: {
        start: 'alarm',
        vertices: {
          alarm: {
            run: async (ctx) => {
              if (!seen.has(ctx.runId)) {
                seen.add(ctx.runId);
                onFirstPass();
              }
              await ctx.sleepUntil(new Date(ctx.state.at));
              onWake(Date.now() - ctx.state.at);
            },
          },
        },
      },
    }),
  };
}

const N = schema({ n: { type: 'integer' } });

/** The child: one trivial vertex. */
export const childFlow = defineFlow<{ n: number }>({
  name: 'bench_child',
  version: 'v1',
  description: 'one vertex',
  inputSchema: N,
  graph: { start: 'work', vertices: { work: { run: (ctx) => ({ n: ctx.state.n + 1 }) } } },
});

/** The parent: starts the child and keeps its result. */
export const parentFlow = defineFlow<{ n: number }>({
  name: 'bench_parent',
  version: 'v1',
  description: 'starts a child',
  inputSchema: N,
  graph: {
    start: 'delegate',
    vertices: {
      delegate: {
        run: async (ctx) => {
          const out = await ctx.runChild('bench_child@v1', { n: ctx.state.n });
          return { n: out['n'] as number };
        },
      },
    },
  },
});

/** The same two vertices in one run: the parent's vertex, then the child's. */
export const inlineFlow = defineFlow<{ n: number }>({
  name: 'bench_inline',
  version: 'v1',
  description: 'two vertices',
  inputSchema: N,
  graph: {
    start: 'delegate',
    vertices: {
      delegate: { run: () => undefined, next: 'work' },
      work: { run: (ctx) => ({ n: ctx.state.n + 1 }) },
    },
  },
});

type FanState = { count: number; sum?: number } & Record<string, number>;

/**
 * `bench_fanout`: fork → `branches` parallel branches (each writing its own key) → join, trivial vertices; the same
 * graph as the LangGraph fan-out baseline. The join's sum is checked by the suite.
 */
export function fanoutFlow(branches: number) {
  const ids = Array.from({ length: branches }, (_, i) => `b${i}`);
  return defineFlow<{ count: number }, FanState>({
    name: 'bench_fanout',
    version: 'v1',
    description: `${branches} parallel branches and a join`,
    inputSchema: schema({ count: { type: 'integer', minimum: 0 } }),
    graph: {
      start: 'fork',
      vertices: {
        fork: { run: (ctx) => ({ count: ctx.state.count + 1 }), next: ids },
        ...Object.fromEntries(
          ids.map((id, i) => [
            id,
            {
              writes: [id],
              run: (ctx: { state: Readonly<FanState> }) => Promise.resolve({ [id]: ctx.state.count + i }),
              next: 'join',
            },
          ]),
        ),
        join: { run: (ctx) => ({ sum: ids.reduce((t, id) => t + (ctx.state[id] ?? 0), 0) }) },
      },
    },
  });
}
