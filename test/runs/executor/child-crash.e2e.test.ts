/**
 * A child run across a crash of its parent, on both backends: a worker process starts parent runs whose vertex starts a
 * child, and is SIGKILLed after the children exist but before any parent could record its wait. A new supervisor runs
 * each parent's vertex again: it finds the child it already started (the start's idempotency key is the visit's, not
 * the try's), so every parent has exactly one child and completes with that child's result.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { childCrashFlows } from '../fixtures/child-crash-flow.js';
import { readExecutions } from '../fixtures/crash-flow.js';
import { spawnCrashWorker } from '../fixtures/crash-harness.js';
import { crashBackends } from '../fixtures/crash-backends.js';
import { waitFor } from '../helpers.js';

const RUNS = 4;
const backends = await crashBackends('runs_child_crash');

for (const backend of backends) {
  describe(`child runs across a crash of the parent: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('a parent killed mid-vertex after starting its child starts no second child', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-child-crash-'));
      const opened = backend.open(dir);
      await opened.store.open();
      const sideFile = join(dir, 'executions.log');
      const sessionId = randomUUID();
      const worker = spawnCrashWorker({
        store: opened.config,
        sideFile,
        sessionId,
        runs: RUNS,
        worker: 'child',
        leaseMs: 300,
        concurrency: RUNS * 2,
        flow: 'child',
        holdParks: true,
      });
      let supervisor: Supervisor | undefined;
      try {
        await worker.midRun(RUNS);
        const parents = await waitFor(async () => {
          const all = (await opened.store.listRuns(sessionId, { limit: 100 })).filter((r) => r.parent_run_id === null);
          if (all.length < RUNS) return undefined;
          for (const run of all) {
            if ((await opened.store.childRuns(run.run_id, { limit: 10 })).length !== 1) return undefined;
          }
          return all;
        });
        await worker.kill();
        for (const parent of parents) {
          assert.equal((await opened.store.getRunById(parent.run_id))?.status, 'running', 'killed mid-vertex');
        }

        const catalog = new FlowCatalog();
        for (const flow of childCrashFlows(sideFile, 'parent')) catalog.register(flow);
        supervisor = new Supervisor({ store: opened.store, catalog, leaseMs: 300, concurrency: RUNS * 2 });
        await supervisor.start();
        await waitFor(async () => {
          const all = await opened.store.listRuns(sessionId, { limit: 100 });
          return all.length === RUNS * 2 && all.every((r) => r.status === 'completed') ? true : undefined;
        });

        const executions = readExecutions(readFileSync(sideFile, 'utf8'));
        for (const parent of parents) {
          const children = await opened.store.childRuns(parent.run_id, { limit: 10 });
          assert.equal(children.length, 1, 'one child per parent');
          const cp = await opened.store.latestCheckpoint(parent.run_id);
          assert.deepEqual(cp?.state['flow_state'], { n: 0, doubled: 0 });
          const ran = executions.get(`${parent.run_id} delegate`)?.length ?? 0;
          assert.ok(ran >= 2, 'the parent vertex ran again after the crash (and once more when its child woke it)');
        }
      } finally {
        await worker.kill();
        await supervisor?.stop();
        await opened.store.close();
        await opened.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
