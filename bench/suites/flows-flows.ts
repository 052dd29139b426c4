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
