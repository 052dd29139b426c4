import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isRimthanError } from '../../../src/core/errors.js';
import { buildStepCommit } from '../../../src/runs/executor/commit-builder.js';
import { seedStep } from '../../../src/runs/executor/steps.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import type { RunStore } from '../../../src/runs/store/types.js';
import { DeferredRuns, DEFER_BACKOFF } from '../../../src/runs/supervisor/deferred-runs.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, fullHistory, tempStore, waitFor, waitForStatus } from '../helpers.js';

type N = { n: number };

function versioned(version: string, ran: string[], worker: string) {
  return defineFlow<N>({
    name: 'deploy_flow',
    version,
    description: 'one step',
    inputSchema: closedSchema({ n: { type: 'integer' } }),
    graph: {
      start: 'go',
      vertices: {
        go: {
          run: ({ state }) => {
            ran.push(worker);
            return { n: state.n + 1 };
          },
        },
      },
    },
  });
}

/** A seeded run of deploy_flow@`version` (as a worker that has the version would have left it), leased to nobody. */
async function seededRun(store: RunStore, sessionId: string, version: string) {
  const record = await createPendingRun(store, { sessionId, name: 'deploy_flow', version, input: { n: 0 } });
  const now = new Date().toISOString();
  const step = seedStep({ record, now, totalVertices: 1, flowState: { n: 0 }, start: 'go' });
  return store.commit(buildStepCommit(step));
}

describe('a worker without the pinned flow version (rolling deploy)', () => {
  test('leaves the run untouched, reports unknown_definition, and another worker that has the version runs it', async () => {
    const temp = await tempStore();
    const ran: string[] = [];
    const reports: { code: string; phase: string; runId: string | undefined }[] = [];
    const oldCatalog = new FlowCatalog();
    oldCatalog.register(versioned('v1', ran, 'old'));
    const newCatalog = new FlowCatalog();
    newCatalog.register(versioned('v1', ran, 'new'));
    newCatalog.register(versioned('v2', ran, 'new'));
    // Leases far longer than the test: the new worker can only get the run because the old one released it.
    const old = new Supervisor({
      store: temp.store,
      catalog: oldCatalog,
      leaseMs: 600_000,
      // A worker of the older deployment that is still serving while the newer one rolls out.
      removedVersions: 'ignore',
      onError: (error, where) =>
        reports.push({ code: isRimthanError(error) ? error.code : 'other', phase: where.phase, runId: where.runId }),
    });
    const fresh = new Supervisor({ store: temp.store, catalog: newCatalog, leaseMs: 600_000 });
    try {
      const run = await seededRun(temp.store, randomUUID(), 'v2');
      await old.start();
      await waitFor(() => (reports.length > 0 ? true : undefined));
      assert.deepEqual(reports[0], { code: 'unknown_definition', phase: 'definition', runId: run.run_id });
      const untouched = await temp.store.getRunById(run.run_id);
      assert.equal(untouched?.status, 'running');
      assert.equal(untouched?.checkpoint_revision, 0);
      assert.equal(untouched?.status_summary, run.status_summary);
      assert.deepEqual(
        (await fullHistory(temp.store, run.run_id)).map((e) => e.kind),
        ['run_started'],
      );

      await fresh.start();
      await waitForStatus(temp.store, run.run_id, 'completed');
      assert.deepEqual(ran, ['new']);
      assert.deepEqual(temp.checkpointRevisions(run.run_id), [0, 1]);
    } finally {
      await old.stop();
      await fresh.stop();
      await temp.cleanup();
    }
  });

  test('with unknownDefinition "fail" the worker fails the run at once', async () => {
    const temp = await tempStore();
    const catalog = new FlowCatalog();
    catalog.register(versioned('v1', [], 'only'));
    const only = new Supervisor({ store: temp.store, catalog, unknownDefinition: 'fail', removedVersions: 'ignore' });
    try {
      const run = await seededRun(temp.store, randomUUID(), 'v9');
      await only.start();
      const failed = await waitForStatus(temp.store, run.run_id, 'failed');
      assert.equal(failed.status_summary, 'flow deploy_flow@v9 is not registered');
      assert.deepEqual(
        (await fullHistory(temp.store, run.run_id)).map((e) => e.kind),
        ['run_started', 'run_failed'],
      );
    } finally {
      await only.stop();
      await temp.cleanup();
    }
  });

  test('a deferred run is skipped for a back-off that doubles per deferral, up to five minutes', () => {
    const runs = new DeferredRuns();
    assert.equal(runs.add('a', 0), DEFER_BACKOFF.firstMs);
    assert.deepEqual(runs.active(DEFER_BACKOFF.firstMs - 1), ['a']);
    assert.deepEqual(runs.active(DEFER_BACKOFF.firstMs), []);
    assert.equal(runs.add('a', 5000), DEFER_BACKOFF.firstMs * 2);
    let delay = 0;
    for (let i = 0; i < 20; i++) delay = runs.add('a', 10_000);
    assert.equal(delay, DEFER_BACKOFF.maxMs);
    runs.forget('a');
    assert.equal(runs.add('a', 0), DEFER_BACKOFF.firstMs, 'a run executed meanwhile starts over');
    for (let i = 0; i < 1500; i++) runs.add(`r${i}`, 0);
    assert.equal(runs.active(1).length, 1000, 'at most 1000 runs are set aside');
  });
});
