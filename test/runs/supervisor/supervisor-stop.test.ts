import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, deferred, fullHistory, tempStore, waitForStatus } from '../helpers.js';

type N = { n: number };

function twoStepFlow(first: (signal: AbortSignal) => Promise<void>) {
  return defineFlow<N>({
    name: 'two_step_flow',
    version: 'v1',
    description: 'a controllable first step, then a second',
    inputSchema: closedSchema({ n: { type: 'integer' } }),
    graph: {
      start: 'first',
      vertices: {
        first: {
          run: async ({ signal, state }) => {
            await first(signal);
            return { n: state.n + 1 };
          },
          next: 'second',
        },
        second: { run: ({ state }) => ({ n: state.n + 10 }) },
      },
    },
  });
}

describe('supervisor stop', () => {
  test('stop lets the vertex in flight finish, commits it, and releases the lease for another worker', async () => {
    const temp = await tempStore();
    const entered = deferred();
    const release = deferred();
    const catalog = new FlowCatalog();
    catalog.register(
      twoStepFlow(async () => {
        entered.resolve();
        await release.promise;
      }),
    );
    // A lease far longer than the test: the second worker can only adopt the run because the first released it.
    const first = new Supervisor({ store: temp.store, catalog, leaseMs: 600_000, stopGraceMs: 60_000 });
    const second = new Supervisor({ store: temp.store, catalog, leaseMs: 600_000 });
    try {
      await first.start();
      const sessionId = randomUUID();
      const run = await createPendingRun(temp.store, {
        sessionId,
        name: 'two_step_flow',
        version: 'v1',
        input: { n: 0 },
      });
      await first.forSession(sessionId).start(run.run_id);
      await entered.promise;
      const stopping = first.stop();
      release.resolve();
      await stopping;
      const afterStop = await temp.store.getRunById(run.run_id);
      assert.equal(afterStop?.status, 'running');
      assert.equal(afterStop?.checkpoint_revision, 1, 'the vertex in flight was committed, the next one not started');
      await second.start();
      await waitForStatus(temp.store, run.run_id, 'completed');
      assert.deepEqual((await temp.store.latestCheckpoint(run.run_id))?.state['flow_state'], { n: 11 });
      assert.deepEqual(temp.checkpointRevisions(run.run_id), [0, 1, 2]);
    } finally {
      release.resolve();
      await first.stop();
      await second.stop();
      await temp.cleanup();
    }
  });

  test('after the grace period stop aborts the vertex in flight without writing, and the run is adopted later', async () => {
    const temp = await tempStore();
    const entered = deferred<AbortSignal>();
    let calls = 0;
    const catalog = new FlowCatalog();
    catalog.register(
      twoStepFlow(async (signal) => {
        calls++;
        if (calls === 1) {
          entered.resolve(signal);
          await new Promise(() => undefined);
        }
      }),
    );
    const first = new Supervisor({ store: temp.store, catalog, leaseMs: 600_000, stopGraceMs: 1 });
    const second = new Supervisor({ store: temp.store, catalog, leaseMs: 600_000 });
    try {
      await first.start();
      const sessionId = randomUUID();
      const run = await createPendingRun(temp.store, {
        sessionId,
        name: 'two_step_flow',
        version: 'v1',
        input: { n: 0 },
      });
      await first.forSession(sessionId).start(run.run_id);
      const signal = await entered.promise;
      await first.stop();
      assert.equal(signal.aborted, true);
      const afterStop = await temp.store.getRunById(run.run_id);
      assert.equal(afterStop?.status, 'running');
      assert.equal(afterStop?.checkpoint_revision, 0);
      assert.deepEqual(
        (await fullHistory(temp.store, run.run_id)).map((e) => e.kind),
        ['run_started'],
      );
      await second.start();
      await waitForStatus(temp.store, run.run_id, 'completed');
      assert.equal(calls, 2);
      assert.deepEqual((await temp.store.latestCheckpoint(run.run_id))?.state['flow_state'], { n: 11 });
    } finally {
      await first.stop();
      await second.stop();
      await temp.cleanup();
    }
  });
});
