/**
 * An observing supervisor (the console's) accepts starts but never executes: a run it starts is acknowledged
 * `pending` at its durable seed, no vertex of its flow runs in the observer, and a worker on the same database
 * executes it. On PostgreSQL the observer's wake-up reaches the worker (LISTEN/NOTIFY); on SQLite the worker finds it
 * at its next poll. An observer cannot be started as a worker.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, waitForStatus } from '../helpers.js';
import { twoStoreBackends } from '../support/two-stores.js';

const backends = twoStoreBackends('observe');

/** A one-vertex flow that records which process ran it. */
function catalogFor(worker: string, ranBy: string[]): FlowCatalog {
  const catalog = new FlowCatalog();
  catalog.register(
    defineFlow<{ n: number }>({
      name: 'noted_flow',
      version: 'v1',
      description: 'one vertex that notes who ran it',
      inputSchema: closedSchema({ n: { type: 'integer' } }),
      graph: { start: 'note', vertices: { note: { run: () => void ranBy.push(worker) } } },
    }),
  );
  return catalog;
}

for (const backend of backends) {
  describe(`an observing supervisor: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('starts a run without executing it; a worker on the same store executes it', async () => {
      const ranBy: string[] = [];
      const opened = await backend.open();
      const { a, b } = opened;
      const observer = new Supervisor({ store: a, catalog: catalogFor('observer', ranBy), workerId: 'observer' });
      const worker = new Supervisor({
        store: b,
        catalog: catalogFor('worker', ranBy),
        leaseMs: 500,
        workerId: 'worker',
      });
      try {
        observer.observe();
        assert.equal(observer.running, false);
        await assert.rejects(observer.start(), { code: 'unavailable' });
        const session = observer.forSession(randomUUID());
        const run = await createPendingRun(a, {
          sessionId: session.sessionId,
          name: 'noted_flow',
          version: 'v1',
          input: { n: 1 },
        });
        const started = await session.start(run.run_id);
        assert.equal(started.status, 'pending', 'acknowledged at its seed, waiting for a worker');
        assert.equal(started.checkpoint_revision, 0);
        assert.equal(observer.activeRuns, 0);

        await worker.start();
        const done = await waitForStatus(b, run.run_id, 'completed', 'failed');
        assert.equal(done.status, 'completed');
        assert.deepEqual(ranBy, ['worker'], 'only the worker ran the vertex');
      } finally {
        await observer.stop();
        await worker.stop();
        await opened.cleanup();
      }
    });
  });
}
