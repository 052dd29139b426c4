/**
 * The join order property: whatever order the branches of a parallel step complete in, the barrier yields the same
 * merged state — the fold of the branches' updates in declaration order — and every branch commits exactly once. The
 * real step runner (frontier-run.ts) drives the real vertex runner; only the store is replaced by a host that applies
 * each issued step's checkpoint, and the branches' completions are released in an order fast-check chooses.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { JsonObject } from '../../../src/core/json.js';
import { withSlots } from '../../../src/runs/executor/branch-steps.js';
import { seedCheckpoint, type FlowCheckpoint } from '../../../src/runs/executor/checkpoint-state.js';
import type { StepCommit } from '../../../src/runs/executor/commit-builder.js';
import { runFrontier, type FrontierHost } from '../../../src/runs/executor/frontier-run.js';
import { runVertex } from '../../../src/runs/executor/vertex-runner.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import type { VertexSpec } from '../../../src/runs/flow/types.js';
import type { RunRecord } from '../../../src/runs/store/types.js';
import { closedSchema, deferred } from '../helpers.js';

type S = JsonObject;

/** Branch i writes: its own key, optionally an entry of the list `log` and a piece of the string `text` (reducers). */
interface BranchPlan {
  readonly log: boolean;
  readonly text: boolean;
  readonly own: number;
}

function catalogFor(plans: readonly BranchPlan[]) {
  const vertices: Record<string, VertexSpec<S>> = {
    fork: { run: () => undefined, next: plans.map((_, i) => `b${i}`) },
  };
  plans.forEach((plan, i) => {
    vertices[`b${i}`] = {
      writes: [`own${i}`, 'log', 'text'],
      run: () => ({
        [`own${i}`]: plan.own,
        ...(plan.log ? { log: [i] } : {}),
        ...(plan.text ? { text: `<${i}>` } : {}),
      }),
    };
  });
  const catalog = new FlowCatalog();
  return catalog.register<S, S>({
    name: 'join_order',
    version: 'v1',
    description: 'property',
    inputSchema: closedSchema({}),
    graph: {
      start: 'fork',
      vertices,
      reducers: {
        log: (current, update) => [...((current as number[] | undefined) ?? []), ...(update as number[])],
        text: (current, update) => `${(current as string | undefined) ?? ''}${update as string}`,
      },
    },
  });
}

/** The merged state the declaration order defines. */
function expected(plans: readonly BranchPlan[]): JsonObject {
  const out: Record<string, unknown> = { base: true };
  plans.forEach((plan, i) => {
    out[`own${i}`] = plan.own;
    if (plan.log) out['log'] = [...((out['log'] as number[] | undefined) ?? []), i];
    if (plan.text) out['text'] = `${(out['text'] as string | undefined) ?? ''}<${i}>`;
  });
  return out as JsonObject;
}

async function runInOrder(plans: readonly BranchPlan[], order: readonly number[]) {
  const def = catalogFor(plans);
  const slots = plans.map((_, i) => ({ vertex: `b${i}` }));
  let cp: FlowCheckpoint = withSlots(seedCheckpoint({ base: true }, 'fork'), slots);
  const issued: StepCommit[] = [];
  const gates = plans.map(() => deferred());
  const halt = new AbortController();
  const drain = new AbortController();
  let tries = 0;
  const host: FrontierHost = {
    runId: 'run-1',
    def,
    input: {},
    halt: halt.signal,
    drain: drain.signal,
    checkpoint: () => cp,
    base: () => ({ record: {} as RunRecord, now: '2026-12-05T00:00:00.000Z', totalVertices: def.graph.size }),
    beginTry: () => Promise.resolve(++tries),
    onTryFailed: () => undefined,
    async runVertex(request) {
      const outcome = await runVertex(request);
      await gates[Number(request.vertex.id.slice(1))]?.promise;
      return outcome;
    },
    issue(step) {
      issued.push(step);
      cp = step.checkpoint;
      return Promise.resolve(true);
    },
  };
  const ended = runFrontier(host, cp as FlowCheckpoint & { frontier: NonNullable<FlowCheckpoint['frontier']> });
  for (const i of order) {
    gates[i]?.resolve();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { end: await ended, issued };
}

describe('join order', () => {
  test('any completion order of the branches gives the same merged state', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(fc.record({ log: fc.boolean(), text: fc.boolean(), own: fc.integer({ min: -5, max: 5 }) }), {
            minLength: 2,
            maxLength: 6,
          })
          .chain((plans) =>
            fc.tuple(
              fc.constant(plans),
              fc.shuffledSubarray(
                plans.map((_, i) => i),
                { minLength: plans.length, maxLength: plans.length },
              ),
            ),
          ),
        async ([plans, order]) => {
          const { end, issued } = await runInOrder(plans, order);
          assert.equal(end.kind, 'finish', 'the step ends the run (no edge after the branches)');
          if (end.kind !== 'finish') return;
          assert.deepEqual(end.step.checkpoint.flow_state, expected(plans));
          assert.equal(end.step.checkpoint.status, 'completed');
          // One commit per branch in completion order: all but the last issued, the last carries the barrier.
          const committed = [...issued, end.step].map((s) => s.activities[0]?.vertex?.id);
          assert.deepEqual(
            committed,
            order.map((i) => `b${i}`),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
