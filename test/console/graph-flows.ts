/**
 * Flows whose graphs the console and `rimthan runs graph` tests draw, as a `--flows` module (it exports `flows`):
 * - graph_demo@v1: waits for event `go`, fans out to two parallel branches that join, then starts graph_child@v1 and
 *   waits for it, then ends: every step of it is held by an event the test sends, so a test sees each state in turn.
 * - graph_child@v1: waits for event `release`.
 * - graph_shapes@v1: every kind of edge: a fan-out and its join, a conditional edge, a vertex that always fails after
 *   its retries into an error route, and a `forEach` vertex; it runs to its end on its own.
 * Their inputs carry text the tests look for in every answer (it must never be shown).
 */
import { defineFlow } from '../../src/runs/flow/define.js';
import { closedSchema } from '../runs/helpers.js';

type DemoState = { topic: string; left?: number; right?: number; child?: number };

export const graphDemoFlow = defineFlow<{ topic: string }, DemoState>({
  name: 'graph_demo',
  version: 'v1',
  description: 'waits for go, runs two branches, delegates to a child',
  inputSchema: closedSchema({ topic: { type: 'string', maxLength: 200 } }),
  graph: {
    start: 'plan',
    vertices: {
      plan: {
        label: 'Plan the work',
        run: async (ctx) => {
          await ctx.waitForEvent('go');
        },
        next: ['left', 'right'],
      },
      left: { label: 'Left branch', run: () => ({ left: 1 }), writes: ['left'], next: 'gather' },
      right: { label: 'Right branch', run: () => ({ right: 2 }), writes: ['right'], next: 'gather' },
      gather: { label: 'Gather the branches', run: () => undefined, next: 'delegate' },
      delegate: {
        label: 'Delegate to a child',
        run: async (ctx) => {
          const out = await ctx.runChild('graph_child@v1', { topic: ctx.state.topic });
          return { child: typeof out['topic'] === 'string' ? 1 : 0 };
        },
        next: 'finish',
      },
      finish: { label: 'Finish', run: () => undefined },
    },
  },
});

export const graphChildFlow = defineFlow<{ topic: string }>({
  name: 'graph_child',
  version: 'v1',
  description: 'waits for release',
  inputSchema: closedSchema({ topic: { type: 'string', maxLength: 200 } }),
  graph: {
    start: 'hold',
    vertices: {
      hold: {
        label: 'Hold until released',
        run: async (ctx) => {
          await ctx.waitForEvent('release');
        },
      },
    },
  },
});

type ShapesState = { topic: string; items?: number[]; tallied?: boolean; total?: number; fetched?: boolean };

export const graphShapesFlow = defineFlow<{ topic: string }, ShapesState>({
  name: 'graph_shapes',
  version: 'v1',
  description: 'fan-out, join, decision, error route, forEach',
  inputSchema: closedSchema({ topic: { type: 'string', maxLength: 200 } }),
  graph: {
    start: 'split',
    vertices: {
      split: { label: 'Split', run: () => undefined, next: ['count', 'tally'] },
      count: { label: 'Count items', run: () => ({ items: [1, 2, 3] }), writes: ['items'], next: 'merge' },
      tally: { label: 'Tally', run: () => ({ tallied: true }), writes: ['tallied'], next: 'merge' },
      merge: {
        label: 'Merge',
        run: () => undefined,
        next: (s) => ((s.items ?? []).length > 5 ? 'publish' : 'fetch'),
      },
      fetch: {
        label: 'Fetch upstream',
        retry: { attempts: 2, backoffMs: 1 },
        timeoutMs: 5000,
        run: () => {
          throw Object.assign(new Error('upstream is down'), { code: 'upstream_down' });
        },
        onError: 'fallback',
        next: 'each',
      },
      fallback: { label: 'Fall back', run: () => ({ fetched: false }), next: 'each' },
      each: {
        label: 'Sum each item',
        forEach: (s) => s.items ?? [],
        maxItems: 8,
        writes: ['total'],
        run: (ctx) => ({ total: ctx.item as number }),
      },
      publish: { label: 'Publish', run: () => undefined },
    },
    reducers: { total: (current, update) => (current ?? 0) + update },
  },
});

export const flows = [graphDemoFlow, graphChildFlow, graphShapesFlow];
