/**
 * Conformance cases for flow schedules (RunSchedules), on the store and through supervisors: a sync inserts, updates
 * and deletes; a compare-and-swap has exactly one winner among racing workers; two supervisors on one database start
 * exactly one run per tick (step by step and in a burst); a tick taken by a worker that died before or after starting
 * its run is finished once; the state survives a restart; each overlap and catch-up policy does what it says.
 *
 * Time is a movable test clock shared by the supervisors (cron `* * * * *` or every 10 minutes), so no case sleeps.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from '../../../src/core/clock.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import type { ScheduleSpec } from '../../../src/runs/flow/types.js';
import { sendEvent } from '../../../src/runs/operator/send-event.js';
import type { RunStore, ScheduleDeclaration, ScheduleRecord } from '../../../src/runs/store/types.js';
import { scheduleSessionId, tickIdempotencyKey } from '../../../src/runs/supervisor/scheduler.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, waitFor, waitForStatus, startRequest } from '../helpers.js';
import { now, rimthanCode } from './store-fixtures.js';

const MINUTE = 60_000;
/** 2030-01-01T00:00:30Z: half a minute past a tick of every cron used here. */
const T0 = Date.UTC(2030, 0, 1, 0, 0, 30);

class TestClock implements Clock {
  constructor(public at: number) {}
  now(): Date {
    return new Date(this.at);
  }
}

const uniqueName = (): string => `sched_${randomBytes(6).toString('hex')}`;

/** A flow of one vertex; with `hold`, its run waits for an event `go` (so it stays `running`). */
function scheduledFlow(name: string, schedule: Omit<ScheduleSpec, 'id'>, hold = false) {
  return defineFlow<{ tick?: string }, { tick?: string }>({
    name,
    version: 'v1',
    description: 'a scheduled flow',
    inputSchema: closedSchema({ tick: { type: 'string' } }, ['tick']),
    schedules: [{ id: 'every', input: (at: Date) => ({ tick: at.toISOString() }), ...schedule }],
    graph: {
      start: 'work',
      vertices: {
        work: {
          run: async (ctx) => {
            if (hold) await ctx.waitForEvent('go');
            return {};
          },
        },
      },
    },
  });
}

function declaration(name: string, id: string, over: Partial<ScheduleDeclaration> = {}): ScheduleDeclaration {
  return {
    definition_name: name,
    schedule_id: id,
    definition_version: 'v1',
    cron: '* * * * *',
    timezone: 'UTC',
    overlap: 'skip',
    catch_up: 'none',
    next_tick_at: T0 + 30_000,
    ...over,
  };
}

/** Registers the cases inside the caller's describe block; `store()` is the suite's store, `another()` a second one. */
export function describeScheduleCases(store: () => RunStore, another: () => Promise<RunStore>): void {
  const supervisors: { supervisor: Supervisor; store: RunStore }[] = [];
  /** A started supervisor on its own store object (another worker of the same database). */
  const worker = async (catalog: FlowCatalog, clock: Clock): Promise<Supervisor> => {
    const own = await another();
    const supervisor = new Supervisor({
      store: own,
      catalog,
      clock,
      leaseMs: 2000,
      schedulePollMs: 15,
      removedVersions: 'ignore',
      abandonedStartMs: false,
      onError: () => undefined,
    });
    supervisors.push({ supervisor, store: own });
    await supervisor.start();
    return supervisor;
  };
  const catalogOf = (flow: Parameters<FlowCatalog['register']>[0]): FlowCatalog => {
    const catalog = new FlowCatalog();
    catalog.register(flow);
    return catalog;
  };
  const row = (name: string): Promise<ScheduleRecord | undefined> => store().getSchedule(name, 'every');
  const rowWhere = (name: string, ok: (r: ScheduleRecord) => boolean): Promise<ScheduleRecord> =>
    waitFor(async () => {
      const r = await row(name);
      return r !== undefined && ok(r) ? r : undefined;
    });
  const runsOf = async (name: string) => store().listRuns(scheduleSessionId(name), { limit: 1000 });
  const stopAll = async (): Promise<void> => {
    // Each worker's store is closed with it (PostgreSQL connections are a shared, bounded resource).
    for (const s of supervisors.splice(0)) {
      await s.supervisor.stop();
      await s.store.close();
    }
  };

  test('a sync inserts, keeps the next tick unless the cron changes, and deletes what is no longer declared', async () => {
    const name = uniqueName();
    const [a] = await store().syncSchedules(name, [declaration(name, 'a'), declaration(name, 'b')], now());
    assert.equal(a?.schedule_id, 'a');
    assert.equal(a?.next_tick_at, T0 + 30_000);
    assert.deepEqual([a?.started, a?.skipped, a?.missed, a?.failed, a?.pending_tick_at], [0, 0, 0, 0, null]);
    // Same declaration, another next tick: nothing changes (not even the revision).
    const same = await store().syncSchedules(name, [declaration(name, 'a', { next_tick_at: T0 + 5 * MINUTE })], now());
    assert.equal(same.length, 1, 'b is deleted');
    assert.equal(same[0]?.next_tick_at, T0 + 30_000);
    assert.equal(same[0]?.revision, a?.revision);
    // A new policy keeps the next tick; a new cron replaces it.
    const policy = await store().syncSchedules(name, [declaration(name, 'a', { overlap: 'allow' })], now());
    assert.equal(policy[0]?.overlap, 'allow');
    assert.equal(policy[0]?.next_tick_at, T0 + 30_000);
    assert.ok((policy[0]?.revision ?? 0) > (a?.revision ?? 0));
    const recron = await store().syncSchedules(
      name,
      [declaration(name, 'a', { cron: '*/5 * * * *', next_tick_at: T0 + 5 * MINUTE })],
      now(),
    );
    assert.equal(recron[0]?.next_tick_at, T0 + 5 * MINUTE);
    assert.deepEqual(await store().syncSchedules(name, [], now()), []);
    assert.equal(await store().getSchedule(name, 'a'), undefined);
  });

  test('racing compare-and-swaps on one schedule revision: exactly one wins', async () => {
    const name = uniqueName();
    const [first] = await store().syncSchedules(name, [declaration(name, 'a')], now());
    const second = await another();
    const base = {
      definition_name: name,
      schedule_id: 'a',
      expected_revision: first?.revision ?? -1,
      updated_at: now(),
    };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? store() : second).updateSchedule({
          ...base,
          set: { pending_tick_at: T0 + 30_000, next_tick_at: T0 + 90_000 },
          add: { skipped: 1 },
        }),
      ),
    );
    assert.equal(results.filter((r) => r !== undefined).length, 1);
    const after = await store().getSchedule(name, 'a');
    assert.equal(after?.skipped, 1);
    assert.equal(after?.next_tick_at, T0 + 90_000);
    assert.equal(after?.revision, (first?.revision ?? 0) + 1);
  });

  test('schedule arguments over their limits are refused', async () => {
    const name = uniqueName();
    await assert.rejects(
      store().syncSchedules(name, [declaration(name, 'Bad Id')], now()),
      rimthanCode('invalid_arguments'),
    );
    await assert.rejects(
      store().syncSchedules(name, [declaration(name, 'a', { overlap: 'sometimes' as 'skip' })], now()),
      rimthanCode('invalid_arguments'),
    );
    await assert.rejects(store().listSchedules({ limit: 0 }), rimthanCode('invalid_arguments'));
    await assert.rejects(
      store().updateSchedule({
        definition_name: name,
        schedule_id: 'a',
        expected_revision: 0,
        set: { last_error: 'x'.repeat(2000) },
        updated_at: now(),
      }),
      rimthanCode('invalid_arguments'),
    );
  });

  test('schedules page in (name, id) order', async () => {
    const name = uniqueName();
    await store().syncSchedules(
      name,
      ['c', 'a-1', 'a_2', 'b'].map((id) => declaration(name, id)),
      now(),
    );
    const ids: string[] = [];
    let after: { definition_name: string; schedule_id: string } | undefined;
    for (;;) {
      const page = await store().listSchedules({ ...(after === undefined ? {} : { after }), limit: 2 });
      ids.push(...page.filter((r) => r.definition_name === name).map((r) => r.schedule_id));
      const last = page[page.length - 1];
      if (last === undefined) break;
      after = { definition_name: last.definition_name, schedule_id: last.schedule_id };
    }
    assert.deepEqual(ids, ['a-1', 'a_2', 'b', 'c']);
  });

  test('two supervisors on one store: N ticks start exactly N runs, one per tick', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    const flow = scheduledFlow(name, { cron: '* * * * *', overlap: 'allow', catchUp: 'all' });
    try {
      await worker(catalogOf(flow), clock);
      await worker(catalogOf(flow), clock);
      const ticks = 6;
      for (let i = 1; i <= ticks; i++) {
        clock.at = T0 - 30_000 + i * MINUTE;
        await rowWhere(name, (r) => r.started === i);
      }
      // A burst: eight ticks due at once, both workers racing for them.
      clock.at += 8 * MINUTE;
      const final = await rowWhere(name, (r) => r.started === ticks + 8);
      const runs = await runsOf(name);
      assert.equal(runs.length, ticks + 8);
      assert.equal(new Set(runs.map((r) => r.idempotency_key)).size, ticks + 8, 'one run per tick');
      assert.deepEqual([final.skipped, final.missed, final.failed, final.pending_tick_at], [0, 0, 0, null]);
      assert.equal(final.last_tick_at, clock.at);
      for (const run of runs) await waitForStatus(store(), run.run_id, 'completed');
    } finally {
      await stopAll();
    }
  });

  test('a tick taken by a worker that died before or after starting its run is finished exactly once', async () => {
    const name = uniqueName();
    const tick = Date.UTC(2030, 0, 1, 0, 10);
    const clock = new TestClock(tick);
    const flow = scheduledFlow(name, { cron: '*/10 * * * *', overlap: 'allow' });
    const take = async (at: number, revision: number) => {
      const taken = await store().updateSchedule({
        definition_name: name,
        schedule_id: 'every',
        expected_revision: revision,
        set: { pending_tick_at: at, next_tick_at: at + 10 * MINUTE },
        updated_at: now(),
      });
      assert.ok(taken !== undefined);
      return taken;
    };
    try {
      // A dead worker's take: the row says pending, no run exists yet.
      const [synced] = await store().syncSchedules(
        name,
        [declaration(name, 'every', { cron: '*/10 * * * *', overlap: 'allow', next_tick_at: tick })],
        now(),
      );
      await take(tick, synced?.revision ?? -1);
      await worker(catalogOf(flow), clock);
      const first = await rowWhere(name, (r) => r.started === 1);
      assert.equal((await runsOf(name)).length, 1);
      await stopAll();
      // A worker that died after starting the next tick's run, before recording it: the run exists, the tick is
      // pending. (An observing supervisor starts the run as the dead worker did: same key, same input.)
      const next = tick + 10 * MINUTE;
      await take(next, first.revision);
      const observer = new Supervisor({ store: store(), catalog: catalogOf(flow), clock });
      observer.observe();
      const started = await observer
        .forSession(scheduleSessionId(name))
        .startNew(
          startRequest(
            name,
            'v1',
            { tick: new Date(next).toISOString() },
            { idempotencyKey: tickIdempotencyKey('every', next), now: () => now() },
          ),
        );
      await observer.stop();
      assert.equal(started.kind, 'started');
      clock.at = next;
      await worker(catalogOf(flow), clock);
      const second = await rowWhere(name, (r) => r.started === 2 && r.pending_tick_at === null);
      assert.equal(second.last_run_id, started.kind === 'started' ? started.run.run_id : '', 'the same run');
      assert.equal((await runsOf(name)).length, 2, 'no second run for the tick');
    } finally {
      await stopAll();
    }
  });

  test('schedule state survives a restart: the next supervisor continues the count', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    const flow = scheduledFlow(name, { cron: '* * * * *' });
    try {
      await worker(catalogOf(flow), clock);
      clock.at = T0 + 30_000;
      await rowWhere(name, (r) => r.started === 1);
      await stopAll();
      await worker(catalogOf(flow), clock);
      clock.at += MINUTE;
      const r = await rowWhere(name, (x) => x.started === 2);
      assert.equal(r.missed, 0);
      assert.equal((await runsOf(name)).length, 2);
    } finally {
      await stopAll();
    }
  });

  test('overlap skip: ticks while the previous run is live start nothing and are counted', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    try {
      await worker(catalogOf(scheduledFlow(name, { cron: '* * * * *', overlap: 'skip' }, true)), clock);
      clock.at = T0 + 30_000;
      const first = await rowWhere(name, (r) => r.started === 1);
      const runId = first.last_run_id ?? '';
      await waitFor(async () =>
        (await store().getRunById(runId))?.status_summary.startsWith('waiting') ? 1 : undefined,
      );
      for (const skipped of [1, 2]) {
        clock.at += MINUTE;
        await rowWhere(name, (r) => r.skipped === skipped);
      }
      await sendEvent(store(), clock, { runId, name: 'go', eventId: 'e1' });
      await waitForStatus(store(), runId, 'completed');
      clock.at += MINUTE;
      const r = await rowWhere(name, (x) => x.started === 2);
      assert.equal(r.skipped, 2);
      assert.notEqual(r.last_run_id, runId);
    } finally {
      await stopAll();
    }
  });

  test('overlap buffer_one: one tick waits for the previous run, further ones are skipped', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    try {
      await worker(catalogOf(scheduledFlow(name, { cron: '* * * * *', overlap: 'buffer_one' }, true)), clock);
      clock.at = T0 + 30_000;
      const first = await rowWhere(name, (r) => r.started === 1);
      const runId = first.last_run_id ?? '';
      clock.at += MINUTE;
      const buffered = await rowWhere(name, (r) => r.buffered_tick_at !== null);
      assert.equal(buffered.buffered_tick_at, clock.at);
      clock.at += MINUTE;
      await rowWhere(name, (r) => r.skipped === 1);
      await sendEvent(store(), clock, { runId, name: 'go', eventId: 'e1' });
      const second = await rowWhere(name, (r) => r.started === 2);
      assert.equal(second.last_tick_at, buffered.buffered_tick_at, 'the buffered tick runs when the first run ends');
      assert.equal(second.buffered_tick_at, null);
    } finally {
      await stopAll();
    }
  });

  test('overlap allow: a tick starts a run while the previous one is live', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    try {
      await worker(catalogOf(scheduledFlow(name, { cron: '* * * * *', overlap: 'allow' }, true)), clock);
      clock.at = T0 + 30_000;
      await rowWhere(name, (r) => r.started === 1);
      clock.at += MINUTE;
      const r = await rowWhere(name, (x) => x.started === 2);
      assert.equal(r.skipped, 0);
      const runs = await runsOf(name);
      assert.equal(runs.filter((run) => run.status === 'running').length, 2);
    } finally {
      await stopAll();
    }
  });

  /** Syncs with no worker running after, moves the clock past four ticks (every 10 minutes), starts a worker. */
  async function catchUp(policy: 'none' | 'latest' | 'all', cron = '*/10 * * * *', until = T0 + 45 * MINUTE) {
    const name = uniqueName();
    const clock = new TestClock(T0);
    const flow = scheduledFlow(name, { cron, overlap: 'allow', catchUp: policy });
    await worker(catalogOf(flow), clock);
    await stopAll();
    clock.at = until;
    await worker(catalogOf(flow), clock);
    const r = await rowWhere(name, (x) => x.next_tick_at > clock.at && x.pending_tick_at === null);
    await stopAll();
    return { row: r, runs: await runsOf(name) };
  }

  test('catch-up none: ticks missed while no worker ran are counted, not run', async () => {
    const { row: r, runs } = await catchUp('none');
    assert.deepEqual([r.started, r.missed, runs.length], [0, 4, 0]);
  });

  test('catch-up latest: only the most recent missed tick runs', async () => {
    const { row: r, runs } = await catchUp('latest');
    assert.deepEqual([r.started, r.missed, runs.length], [1, 3, 1]);
    assert.equal(r.last_tick_at, Date.UTC(2030, 0, 1, 0, 40));
  });

  test('catch-up all: each missed tick runs, up to 100; older ones are counted missed', async () => {
    const few = await catchUp('all');
    assert.deepEqual([few.row.started, few.row.missed, few.runs.length], [4, 0, 4]);
    const many = await catchUp('all', '* * * * *', T0 + 120 * MINUTE);
    assert.deepEqual([many.row.started, many.row.missed, many.runs.length], [100, 20, 100]);
  });

  test('a tick whose input breaks the input schema fails visibly and starts nothing', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    const flow = scheduledFlow(name, { cron: '* * * * *', input: () => ({ tick: 42 }) });
    try {
      await worker(catalogOf(flow), clock);
      clock.at = T0 + 30_000;
      const r = await rowWhere(name, (x) => x.failed === 1);
      assert.match(r.last_error, /^invalid_input: input does not match the definition input schema \(type at /);
      assert.equal(r.started, 0);
      assert.equal((await runsOf(name)).length, 0);
      clock.at += MINUTE;
      await rowWhere(name, (x) => x.failed === 2);
    } finally {
      await stopAll();
    }
  });

  test('a supervisor lacking the owning version leaves the schedule alone', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    try {
      const [synced] = await store().syncSchedules(
        name,
        [declaration(name, 'every', { definition_version: 'v9', next_tick_at: T0 + 30_000 })],
        now(),
      );
      const other = new FlowCatalog();
      other.register(scheduledFlow(uniqueName(), { cron: '* * * * *' }));
      await worker(other, clock);
      clock.at = T0 + 5 * MINUTE;
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((await row(name))?.revision, synced?.revision);
    } finally {
      await stopAll();
    }
  });

  test('an observing supervisor (the console) never syncs nor ticks a schedule', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    const observer = new Supervisor({
      store: store(),
      catalog: catalogOf(scheduledFlow(name, { cron: '* * * * *' })),
      clock,
    });
    observer.observe();
    clock.at = T0 + 5 * MINUTE;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await row(name), undefined);
    await observer.stop();
  });

  test('scheduled runs are normal runs of the schedule session', async () => {
    const name = uniqueName();
    const clock = new TestClock(T0);
    try {
      const s = await worker(catalogOf(scheduledFlow(name, { cron: '* * * * *' })), clock);
      clock.at = T0 + 30_000;
      const r = await rowWhere(name, (x) => x.started === 1);
      const run = await s.forSession(scheduleSessionId(name)).history(r.last_run_id ?? '', { limit: 10 });
      assert.ok(run !== undefined && run.length > 0);
      assert.equal(run[0]?.kind, 'run_started');
      assert.equal(await s.forSession(randomUUID()).history(r.last_run_id ?? '', { limit: 10 }), undefined);
    } finally {
      await stopAll();
    }
  });
}
