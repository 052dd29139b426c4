/**
 * SessionController.startNew, the one owner of a start: its typed outcome (started | replayed | refused with a code |
 * failed with its stage) for each way a start can end, and what it leaves in the store.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { StartRequest } from '../../../src/runs/index.js';
import { StartRefusal } from '../../../src/runs/supervisor/types.js';
import { counterFlow } from '../fixtures/test-flows.js';
import { engineFixture, type EngineFixture } from '../helpers.js';

function request(overrides: Partial<StartRequest> = {}): StartRequest {
  return {
    definitionName: 'counter_flow',
    definitionVersion: 'v1',
    input: { count: 1 },
    parentRunId: null,
    idempotencyKey: null,
    mintRunId: () => randomUUID(),
    now: () => new Date().toISOString(),
    ...overrides,
  };
}

describe('starting a new run through its one owner', () => {
  let fx: EngineFixture;
  before(async () => {
    fx = await engineFixture((catalog) => catalog.register(counterFlow));
  });
  after(() => fx.close());

  test('a valid request is started: seeded durably in one write', async () => {
    const outcome = await fx.session.startNew(request());
    assert.equal(outcome.kind, 'started');
    if (outcome.kind !== 'started') return;
    assert.equal(outcome.run.checkpoint_revision, 0);
    assert.equal((await fx.store.getRun(fx.sessionId, outcome.run.run_id))?.checkpoint_revision, 0);
  });

  test('refusals carry a code and create nothing', async () => {
    const minted: string[] = [];
    const mint = () => {
      const id = randomUUID();
      minted.push(id);
      return id;
    };
    const cases: [Partial<StartRequest>, StartRefusal][] = [
      [{ definitionVersion: 'v9' }, StartRefusal.UnknownDefinition],
      [{ input: { count: 'one' } }, StartRefusal.InvalidInput],
      [{ parentRunId: randomUUID() }, StartRefusal.ParentNotFound],
      [{ mintRunId: () => undefined }, StartRefusal.InvalidRunId],
      [{ prepareRun: () => Promise.reject(new Error('no')) }, StartRefusal.PrepareFailed],
      [{ prepareRun: (r) => ({ ...r, definition_version: 'v2' }) }, StartRefusal.PrepareRefused],
    ];
    for (const [overrides, code] of cases) {
      const outcome = await fx.session.startNew(request({ mintRunId: mint, ...overrides }));
      assert.equal(outcome.kind, 'refused');
      if (outcome.kind === 'refused') assert.equal(outcome.code, code);
    }
    for (const id of minted) assert.equal(await fx.store.getRunById(id), undefined);
  });

  test('an idempotency key replays the same request and refuses a different one', async () => {
    const key = `key-${randomUUID()}`;
    const first = await fx.session.startNew(request({ idempotencyKey: key }));
    assert.equal(first.kind, 'started');
    const again = await fx.session.startNew(request({ idempotencyKey: key }));
    assert.equal(again.kind, 'replayed');
    if (first.kind === 'started' && again.kind === 'replayed') assert.equal(again.run.run_id, first.run.run_id);
    const other = await fx.session.startNew(request({ idempotencyKey: key, input: { count: 2 } }));
    assert.deepEqual(other, { kind: 'refused', code: StartRefusal.IdempotencyConflict });
  });

  test('a store failure is reported with the stage it happened in, never as a start', async () => {
    const duplicate = await fx.session.startNew(request());
    assert.equal(duplicate.kind, 'started');
    if (duplicate.kind !== 'started') return;
    const outcome = await fx.session.startNew(request({ mintRunId: () => duplicate.run.run_id }));
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.equal(outcome.stage, 'create');
  });
});
