/**
 * Concurrency limits per key on one SQLite store (FlowSpec.concurrency): 200 concurrent starts never execute more than
 * the limit per key and all complete; a waiting run can be cancelled and frees nothing; waiting runs stay waiting over
 * a restart and run on the next supervisor; a key function that fails refuses the start; register checks the limit.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { SLOT_WAIT_SUMMARY } from '../../../src/runs/store/concurrency-plan.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { RunStatus, type RunRecord } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import type { SessionController } from '../../../src/runs/supervisor/types.js';
import { badKeyFlow, ConcurrencyProbe, Gate, gatedFlow, limitedFlow } from '../fixtures/limited-flows.js';
import { closedSchema, createPendingRun, tempStore, waitForStatus, startRequest } from '../helpers.js';
import { limitedLoad } from './concurrency-load.js';
import { cancelWaitingCase, restartCase, sweepAfterCrashCase, type OpenStore } from './concurrency-cases.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh SQLite file (removed after the suite); each call of the answer opens a new store on it. */
function openTemp(): OpenStore {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-limits-'));
  dirs.push(dir);
  const path = join(dir, 'runs.db');
  return async () => {
    const store = new SqliteRunStore(path);
    await store.open();
    return store;
  };
}

function catalogWith(probe: ConcurrencyProbe, gate: Gate): FlowCatalog {
  const c = new FlowCatalog();
  c.register(limitedFlow(probe));
  c.register(gatedFlow(gate));
  c.register(badKeyFlow);
  return c;
}

async function startNew(session: SessionController, name: string, input: { n: number }): Promise<RunRecord> {
  const outcome = await session.startNew(startRequest(name, 'v1', input));
  assert.equal(outcome.kind, 'started');
  return (outcome as { run: RunRecord }).run;
}

describe('concurrency limits per key (SQLite)', () => {
  test('200 concurrent starts: never more than the limit per key at once, all complete', async () => {
    const fx = await tempStore();
    const probe = new ConcurrencyProbe();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(probe, new Gate()), concurrency: 32 });
    await supervisor.start();
    try {
      await limitedLoad([{ store: fx.store, supervisor }], probe);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('cancelling a waiting run works and frees nothing', () => cancelWaitingCase(openTemp()));

  test('a run created first and started later (start(runId)) waits for its slot the same way', async () => {
    const fx = await tempStore();
    const gate = new Gate();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(new ConcurrencyProbe(), gate) });
    await supervisor.start();
    try {
      const sessionId = randomUUID();
      const session = supervisor.forSession(sessionId);
      const a = await startNew(session, 'gated_flow', { n: 1 });
      const created = await createPendingRun(fx.store, {
        sessionId,
        name: 'gated_flow',
        version: 'v1',
        input: { n: 2 },
      });
      const b = await session.start(created.run_id);
      assert.deepEqual([b.status, b.status_summary, b.checkpoint_revision], [RunStatus.Pending, SLOT_WAIT_SUMMARY, 0]);
      assert.equal(
        (await session.start(created.run_id)).record_revision,
        b.record_revision,
        'a repeated start is a no-op',
      );
      gate.open();
      await waitForStatus(fx.store, a.run_id, RunStatus.Completed);
      await waitForStatus(fx.store, b.run_id, RunStatus.Completed);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('waiting runs stay waiting over a restart and run on the next supervisor', () => restartCase(openTemp()));

  test('the sweep admits a waiting run whose holder ended without promoting it', () => sweepAfterCrashCase(openTemp()));

  test('a key function that throws or answers an empty key refuses the start; nothing is created', async () => {
    const fx = await tempStore();
    const supervisor = new Supervisor({ store: fx.store, catalog: catalogWith(new ConcurrencyProbe(), new Gate()) });
    await supervisor.start();
    try {
      const sessionId = randomUUID();
      const session = supervisor.forSession(sessionId);
      for (const n of [-1, 101]) {
        const outcome = await session.startNew(startRequest('bad_key_flow', 'v1', { n }));
        assert.equal(outcome.kind, 'refused');
        const refusal = outcome as { code: string; message?: string };
        assert.equal(refusal.code, 'invalid_input');
        assert.match(refusal.message ?? '', /concurrency key/);
        assert.doesNotMatch(refusal.message ?? '', /secret/);
      }
      assert.deepEqual(await fx.store.listRuns(sessionId, { limit: 10 }), []);
      const ok = await startNew(session, 'bad_key_flow', { n: 5 });
      await waitForStatus(fx.store, ok.run_id, RunStatus.Completed);
    } finally {
      await supervisor.stop();
      await fx.cleanup();
    }
  });

  test('register checks the limit and the key function', () => {
    const flow = (concurrency: unknown) =>
      defineFlow({
        name: 'limit_check',
        version: `v${randomUUID()}`,
        description: '',
        inputSchema: closedSchema({}),
        concurrency: concurrency as { limit: number },
        graph: { start: 'a', vertices: { a: { run: () => undefined } } },
      });
    const catalog = new FlowCatalog();
    for (const bad of [{ limit: 0 }, { limit: 10_001 }, { limit: 1.5 }, { limit: 2, key: 'input.key' }, 3]) {
      assert.throws(
        () => catalog.register(flow(bad)),
        (error: unknown) => (error as { code?: string }).code === 'invalid_definition',
      );
    }
    assert.equal(catalog.register(flow({ limit: 10_000 })).concurrency?.limit, 10_000);
    assert.equal(catalog.register(flow({ limit: 1, key: () => 'k' })).concurrency?.keyed, true);
  });
});
