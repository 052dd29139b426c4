import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isRimthanError } from '../../src/core/errors.js';
import { defineFlow } from '../../src/runs/flow/define.js';
import { StoreConflictError } from '../../src/runs/store/types.js';
import type { SessionController } from '../../src/runs/supervisor/types.js';
import { closedSchema, deferred, engineFixture, fullHistory, storedPendingRecord, waitForStatus } from './helpers.js';
import type { EngineFixture } from './helpers.js';

type N = { n: number };

function code(expected: string) {
  return (e: unknown) => isRimthanError(e) && e.code === expected;
}

function startNewOf(session: SessionController): NonNullable<SessionController['startNew']> {
  const startNew = session.startNew?.bind(session);
  assert.ok(startNew, 'the supervisor controller offers startNew');
  return startNew;
}

/** A flow whose first vertex waits for `gate`, so no vertex commit lands while the start is measured. */
function gatedFlow(gate: Promise<void>) {
  return defineFlow<N>({
    name: 'gated_flow',
    version: 'v1',
    description: 'first vertex waits for the test',
    inputSchema: closedSchema({ n: { type: 'integer' } }),
    graph: {
      start: 'wait',
      vertices: {
        wait: {
          run: async ({ state }) => {
            await gate;
            return { n: state.n + 1 };
          },
        },
      },
    },
  });
}

function record(f: EngineFixture, input: N, runId?: string) {
  const opts = { sessionId: f.sessionId, name: 'gated_flow', version: 'v1', input };
  return storedPendingRecord(f.store, runId === undefined ? opts : { ...opts, runId });
}

describe('startNew: create and seed in one step', () => {
  test('the pending record and the seed become durable in one transaction, then the run executes', async () => {
    const gate = deferred();
    const f = await engineFixture((c) => c.register(gatedFlow(gate.promise)));
    try {
      const startNew = startNewOf(f.session);
      // The ordinary way for comparison: createRun, then start (two synced transactions).
      const before = f.store.transactions;
      const pending = await f.pending('gated_flow', { n: 1 });
      await f.session.start(pending.run_id);
      assert.equal(f.store.transactions - before, 2);

      const fresh = await record(f, { n: 2 });
      const at = f.store.transactions;
      const ack = await startNew(fresh, { n: 2 });
      assert.equal(f.store.transactions - at, 1, 'record and seed shared one synced transaction');
      assert.equal(ack.status, 'running');
      assert.equal(ack.checkpoint_revision, 0);
      assert.deepEqual(f.checkpointRevisions(fresh.run_id), [0], 'the seed is durable when startNew returns');
      assert.deepEqual(
        (await fullHistory(f.store, fresh.run_id)).map((e) => e.kind),
        ['run_started'],
      );
      gate.resolve();
      const done = await waitForStatus(f.store, fresh.run_id, 'completed');
      assert.deepEqual((await f.store.latestCheckpoint(done.run_id))?.state['flow_state'], { n: 3 });
    } finally {
      gate.resolve();
      await f.close();
    }
  });

  test('refusals create nothing: unknown definition, invalid input, a digest that does not match, another session', async () => {
    const gate = deferred();
    const f = await engineFixture((c) => c.register(gatedFlow(gate.promise)));
    try {
      const startNew = startNewOf(f.session);
      const unknown = { ...(await record(f, { n: 1 })), definition_version: 'v9' };
      await assert.rejects(startNew(unknown, { n: 1 }), code('unknown_definition'));
      const invalid = await storedPendingRecord(f.store, {
        sessionId: f.sessionId,
        name: 'gated_flow',
        version: 'v1',
        input: { n: 'one' },
      });
      await assert.rejects(startNew(invalid, { n: 'one' }), code('invalid_input'));
      const mismatched = await record(f, { n: 1 });
      await assert.rejects(startNew(mismatched, { n: 2 }), code('invalid_arguments'));
      const foreign = { ...(await record(f, { n: 1 })), session_id: randomUUID() };
      await assert.rejects(startNew(foreign, { n: 1 }), code('invalid_arguments'));
      for (const r of [unknown, invalid, mismatched, foreign]) {
        assert.equal(await f.store.getRunById(r.run_id), undefined, `no run ${r.run_id} was created`);
      }
    } finally {
      gate.resolve();
      await f.close();
    }
  });

  test("a duplicate run id is createRun's conflict, and the existing run is untouched", async () => {
    const gate = deferred();
    const f = await engineFixture((c) => c.register(gatedFlow(gate.promise)));
    try {
      const startNew = startNewOf(f.session);
      const first = await startNew(await record(f, { n: 1 }), { n: 1 });
      const again = await record(f, { n: 5 }, first.run_id);
      await assert.rejects(startNew(again, { n: 5 }), StoreConflictError);
      const stored = await f.store.getRunById(first.run_id);
      assert.equal(stored?.input_sha256, first.input_sha256);
      assert.deepEqual(f.checkpointRevisions(first.run_id), [0]);
    } finally {
      gate.resolve();
      await f.close();
    }
  });
});
