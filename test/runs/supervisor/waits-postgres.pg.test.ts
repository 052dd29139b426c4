/**
 * Durable waits with two workers on one PostgreSQL schema: a timer set on one worker wakes the run on the other once
 * the first is gone, an event sent through one worker's store reaches a run parked by the other, and cancelling a
 * parent through the other worker cancels the child it awaits.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../src/core/clock.js';
import type { JsonObject } from '../../../src/core/json.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { sendEvent } from '../../../src/runs/operator/send-event.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';
import { approvalEventsFlow, doubleFlow, longChildFlow, napFlow, parentFlow } from '../fixtures/wait-flows.js';
import { createPendingRun, waitFor, waitForStatus } from '../helpers.js';

const reason = await postgresSkipReason();
const schema = uniqueSchema('runs_waits');

function catalog(): FlowCatalog {
  const c = new FlowCatalog();
  c.register(napFlow);
  c.register(approvalEventsFlow);
  c.register(parentFlow);
  c.register(doubleFlow);
  c.register(longChildFlow);
  return c;
}

interface Worker {
  readonly store: PostgresRunStore;
  readonly supervisor: Supervisor;
}

async function worker(id: string): Promise<Worker> {
  const store = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 4 } });
  await store.open();
  const supervisor = new Supervisor({ store, catalog: catalog(), leaseMs: 500, workerId: id });
  await supervisor.start();
  return { store, supervisor };
}

async function start(w: Worker, session: string, name: string, input: JsonObject): Promise<string> {
  const record = await createPendingRun(w.store, { sessionId: session, name, version: 'v1', input });
  await w.supervisor.forSession(session).start(record.run_id);
  return record.run_id;
}

const parked = (w: Worker, runId: string, prefix: string) =>
  waitFor(async () => ((await w.store.getRunById(runId))?.status_summary.startsWith(prefix) ? true : undefined));

describe('durable waits on PostgreSQL with two workers', { skip: reason ?? false }, () => {
  const workers: Worker[] = [];
  before(async () => {
    workers.push(await worker('a'), await worker('b'));
  });
  after(async () => {
    for (const w of workers) {
      await w.supervisor.stop();
      await w.store.close();
    }
    await dropSchema(schema);
  });

  test('a timer set on one worker wakes the run on the other', async () => {
    const [a, b] = workers as [Worker, Worker];
    const session = randomUUID();
    const first = await worker('c');
    const runId = await start(first, session, 'nap_flow', { ms: 500 });
    await parked(first, runId, 'sleeping until');
    await first.supervisor.stop();
    await first.store.close();
    const done = await waitForStatus(a.store, runId, 'completed');
    assert.equal(done.status, 'completed');
    const state = (await b.store.latestCheckpoint(runId))?.state['flow_state'] as JsonObject;
    assert.equal(state['woke'], true);
  });

  test('an event sent through one worker reaches a run parked by the other', async () => {
    const [a, b] = workers as [Worker, Worker];
    const session = randomUUID();
    const runId = await start(a, session, 'approval_events', { timeoutMs: 3_600_000 });
    await parked(a, runId, 'waiting for event approval');
    const send = (name: string, eventId: string) =>
      sendEvent(b.store, systemClock, { runId, sessionId: session, name, eventId, payload: { eventId } });
    assert.equal(await send('approval', 'a-1'), 'delivered');
    assert.equal(await send('approval', 'a-1'), 'duplicate');
    assert.equal(await send('note', 'n-1'), 'delivered');
    await waitForStatus(a.store, runId, 'completed');
    const state = (await b.store.latestCheckpoint(runId))?.state['flow_state'] as JsonObject;
    assert.deepEqual(state['approval'], { eventId: 'a-1' });
  });

  test('cancelling a parent through the other worker cancels the child it awaits', async () => {
    const [a, b] = workers as [Worker, Worker];
    const session = randomUUID();
    const runId = await start(a, session, 'parent_flow', { n: 1, fail: false, child: 'long_child@v1' });
    await parked(a, runId, 'waiting for child');
    const [child] = await a.store.childRuns(runId, { limit: 10 });
    assert.ok(child !== undefined);
    await b.supervisor.forSession(session).cancel(runId, 'stop');
    await waitForStatus(b.store, runId, 'cancelled');
    const ended = await waitForStatus(b.store, child.run_id, 'cancelled');
    assert.equal(ended.status_summary, 'parent run cancelled');
  });
});
