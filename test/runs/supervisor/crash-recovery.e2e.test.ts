import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { crashFlow } from '../fixtures/crash-flow.js';
import { assertRecovered, checkpointedVertices, spawnCrashWorker, startedBy } from '../fixtures/crash-harness.js';
import { tempStore, waitFor } from '../helpers.js';

const RUNS = 6;

describe('crash recovery', () => {
  test('after SIGKILL mid-run a new supervisor finishes every run and never re-runs a checkpointed vertex', async () => {
    const temp = await tempStore();
    await temp.store.close(); // the child owns the file until it dies
    const sideFile = join(temp.dir, 'executions.log');
    const sessionId = randomUUID();
    const worker = spawnCrashWorker({
      store: { kind: 'sqlite', path: temp.path },
      sideFile,
      sessionId,
      runs: RUNS,
      worker: 'child',
      leaseMs: 300,
    });
    let supervisor: Supervisor | undefined;
    try {
      await worker.midRun(8);
      await worker.kill();

      await temp.store.open();
      const startedByChild = startedBy(sideFile, 'child');
      const runs = await temp.store.listRuns(sessionId, { limit: 100 });
      assert.equal(runs.length, RUNS);
      const checkpointed = await checkpointedVertices(temp.store, runs, sideFile);
      assert.ok(checkpointed.size > 0, 'some vertices completed before the crash');
      assert.ok(
        runs.some((r) => r.status === 'running'),
        'some runs were cut short by the crash',
      );

      const catalog = new FlowCatalog();
      catalog.register(crashFlow(sideFile, 1, 'parent'));
      supervisor = new Supervisor({ store: temp.store, catalog, leaseMs: 300, concurrency: 3 });
      await supervisor.start();
      await waitFor(async () => {
        const all = await temp.store.listRuns(sessionId, { limit: 100 });
        return all.every((r) => r.status === 'completed') ? true : undefined;
      });
      const reRun = await assertRecovered(temp.store, runs, checkpointed, sideFile, (id) =>
        Promise.resolve(temp.checkpointRevisions(id)),
      );
      // Exactly the vertices the child began but whose checkpoint was not durable when it died are executed again.
      const inFlight = [...startedByChild].filter((id) => !checkpointed.has(id));
      assert.deepEqual([...reRun].sort(), inFlight.sort(), 'exactly the vertices in flight at the crash run again');
    } finally {
      await worker.kill();
      await supervisor?.stop();
      await temp.cleanup();
    }
  });
});
