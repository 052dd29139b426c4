/**
 * Flow schedules at registration (every malformed ScheduleSpec is an invalid_definition naming its cause) and the
 * scheduler's step planner (catch-up and overlap decisions from a schedule row alone).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/core/json.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { cronTimes, tickInput } from '../../../src/runs/flow/schedules.js';
import type { FlowSpec, ScheduleSpec } from '../../../src/runs/flow/types.js';
import type { ScheduleRecord } from '../../../src/runs/store/types.js';
import { planStep } from '../../../src/runs/supervisor/schedule-plan.js';
import { closedSchema } from '../helpers.js';

function flow(schedules: readonly ScheduleSpec[], version = 'v1'): FlowSpec<JsonObject, JsonObject> {
  return defineFlow<JsonObject, JsonObject>({
    name: 'timed_flow',
    version,
    description: 'a scheduled flow',
    inputSchema: closedSchema({ n: { type: 'integer' } }, ['n']),
    schedules,
    graph: { start: 'a', vertices: { a: { run: () => undefined } } },
  });
}

function refused(schedules: readonly unknown[], message: RegExp): void {
  assert.throws(
    () => new FlowCatalog().register(flow(schedules as ScheduleSpec[])),
    (e: unknown) => isRimthanError(e) && e.code === 'invalid_definition' && message.test(e.message),
  );
}

describe('schedules at registration', () => {
  test('a well-formed schedule registers with its defaults', () => {
    const def = new FlowCatalog().register(flow([{ id: 'nightly', cron: '0 3 * * *' }]));
    const s = def.schedules.get('nightly');
    assert.deepEqual([s?.timezone, s?.overlap, s?.catchUp], ['UTC', 'skip', 'none']);
    assert.deepEqual(s?.input(new Date()), {});
  });

  test('every malformed schedule is refused with its cause', () => {
    refused([{ id: 'Bad', cron: '* * * * *' }], /schedule id must match/);
    refused(
      [
        { id: 'a', cron: '* * * * *' },
        { id: 'a', cron: '0 * * * *' },
      ],
      /two schedules with id a/,
    );
    refused([{ id: 'a', cron: '61 * * * *' }], /schedule a: .*not a five-field cron.*minute/);
    refused([{ id: 'a', cron: '* * * * * *' }], /not a five-field cron/);
    refused([{ id: 'a', cron: '* * * * *', timezone: 'Mars/Olympus' }], /"Mars\/Olympus" is not an IANA time zone/);
    refused([{ id: 'a', cron: '0 0 30 2 *' }], /never fires/);
    refused([{ id: 'a', cron: '* * * * *', overlap: 'queue' }], /overlap must be one of skip, buffer_one, allow/);
    refused([{ id: 'a', cron: '* * * * *', catchUp: 'some' }], /catchUp must be one of none, latest, all/);
    refused([{ id: 'a', cron: '* * * * *', input: { n: 'x' } }], /input does not match the input schema \(type at /);
    refused([{ id: 'a', cron: '* * * * *', input: [1] }], /input must be a JSON object or a function/);
    refused(
      Array.from({ length: 33 }, (_, i) => ({ id: `s${i}`, cron: '* * * * *' })),
      /at most 32 schedules/,
    );
  });

  test('a zone shifts the ticks; the latest registered version owns the schedules', () => {
    const times = cronTimes('0 9 * * *', 'Europe/Paris');
    assert.equal(new Date(times.next(Date.UTC(2030, 0, 1)) ?? 0).toISOString(), '2030-01-01T08:00:00.000Z');
    const catalog = new FlowCatalog();
    catalog.register(flow([{ id: 'old', cron: '* * * * *' }], 'v1'));
    catalog.register(flow([], 'v2'));
    assert.equal(catalog.latest('timed_flow')?.version, 'v2');
  });

  test('a tick input function that throws or answers a non-object fails the tick, not the worker', () => {
    const def = new FlowCatalog().register(
      flow([
        {
          id: 'throws',
          cron: '* * * * *',
          input: () => {
            throw new Error('no');
          },
        },
        { id: 'array', cron: '* * * * *', input: () => [] as unknown as JsonObject },
      ]),
    );
    const at = new Date();
    assert.deepEqual(tickInput(def.schedules.get('throws')!, at), {
      ok: false,
      message: 'the schedule input function threw',
    });
    assert.equal(tickInput(def.schedules.get('array')!, at).ok, false);
  });
});

const MIN = 60_000;
const BASE = Date.UTC(2030, 0, 1, 0, 1);
const EVERY_MINUTE = cronTimes('* * * * *', 'UTC');

function row(over: Partial<ScheduleRecord> = {}): ScheduleRecord {
  return {
    definition_name: 'timed_flow',
    schedule_id: 'a',
    definition_version: 'v1',
    cron: '* * * * *',
    timezone: 'UTC',
    overlap: 'skip',
    catch_up: 'none',
    next_tick_at: BASE,
    pending_tick_at: null,
    buffered_tick_at: null,
    last_tick_at: null,
    last_run_id: null,
    started: 0,
    skipped: 0,
    missed: 0,
    failed: 0,
    last_error: '',
    revision: 0,
    updated_at: '',
    ...over,
  };
}

describe('schedule step planner', () => {
  test('a pending tick is finished first; a buffered one goes once the previous run ended', () => {
    assert.deepEqual(planStep(row({ pending_tick_at: BASE }), BASE, EVERY_MINUTE, true), { kind: 'start', tick: BASE });
    const buffered = row({ buffered_tick_at: BASE, next_tick_at: BASE + MIN });
    assert.deepEqual(planStep(buffered, BASE, EVERY_MINUTE, true), { kind: 'idle', wakeAt: BASE + MIN });
    assert.deepEqual(planStep(buffered, BASE, EVERY_MINUTE, false), {
      kind: 'update',
      set: { pending_tick_at: BASE, buffered_tick_at: null },
    });
  });

  test('a due tick is taken, skipped or buffered by the overlap policy', () => {
    const take = { kind: 'update', set: { pending_tick_at: BASE, next_tick_at: BASE + MIN } };
    assert.deepEqual(planStep(row(), BASE, EVERY_MINUTE, false), take);
    assert.deepEqual(planStep(row({ overlap: 'allow' }), BASE, EVERY_MINUTE, true), take);
    assert.deepEqual(planStep(row(), BASE, EVERY_MINUTE, true), {
      kind: 'update',
      set: { next_tick_at: BASE + MIN },
      add: { skipped: 1 },
    });
    assert.deepEqual(planStep(row({ overlap: 'buffer_one' }), BASE, EVERY_MINUTE, true), {
      kind: 'update',
      set: { buffered_tick_at: BASE, next_tick_at: BASE + MIN },
    });
  });

  test('catch-up: none runs a tick at most 60 s late, latest the newest, all at most 100', () => {
    const late = BASE + 4 * MIN + 30_000; // ticks BASE..BASE+4min due
    assert.deepEqual(planStep(row(), late, EVERY_MINUTE, false), {
      kind: 'update',
      set: { next_tick_at: BASE + 4 * MIN },
      add: { missed: 4 },
    });
    assert.deepEqual(planStep(row(), BASE + 2 * MIN - 1, EVERY_MINUTE, false), {
      kind: 'update',
      set: { next_tick_at: BASE + MIN },
      add: { missed: 1 },
    });
    assert.deepEqual(planStep(row({ catch_up: 'latest' }), late, EVERY_MINUTE, false), {
      kind: 'update',
      set: { next_tick_at: BASE + 4 * MIN },
      add: { missed: 4 },
    });
    assert.equal(planStep(row({ catch_up: 'all' }), late, EVERY_MINUTE, false).kind, 'update');
    assert.deepEqual(planStep(row({ catch_up: 'all' }), BASE + 150 * MIN, EVERY_MINUTE, false), {
      kind: 'update',
      set: { next_tick_at: BASE + 51 * MIN },
      add: { missed: 51 },
    });
    const old = BASE + 2 * MIN; // a lone tick 2 minutes late
    assert.deepEqual(planStep(row({ next_tick_at: BASE }), old + MIN / 2, cronTimes('0 * * * *', 'UTC'), false), {
      kind: 'update',
      set: { next_tick_at: Date.UTC(2030, 0, 1, 1) },
      add: { missed: 1 },
    });
  });
});
