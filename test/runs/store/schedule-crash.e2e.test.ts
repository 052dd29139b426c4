/**
 * Exactly-once schedule ticks through crashes: two worker processes on one SQLite file race through 60 due ticks and
 * are killed by SIGKILL mid-way (a tick may be taken and not yet started, or started and not yet recorded); a third
 * worker finishes. Every tick has exactly one run, and the schedule counts each once.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { scheduleSessionId } from '../../../src/runs/supervisor/scheduler.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import {
  CRASH_NOW,
  CRASH_T0,
  CRASH_TICKS,
  MINUTE_FLOW,
  minuteDeclaration,
  minuteFlow,
} from '../fixtures/schedule-flows.js';
import { waitFor } from '../helpers.js';

function killedChild(file: string, killAt: number): Promise<NodeJS.Signals | null> {
  const child = fileURLToPath(new URL('./schedule-crash-child.js', import.meta.url));
  const process_ = spawn(process.execPath, [child, file, String(killAt)], { stdio: 'ignore' });
  return new Promise((resolve) => process_.on('exit', (_code, signal) => resolve(signal)));
}

test('two workers killed mid catch-up, then a third: every tick starts exactly one run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-schedule-crash-'));
  const file = join(dir, 'runs.db');
  const store = new SqliteRunStore(file);
  await store.open();
  let supervisor: Supervisor | undefined;
  try {
    await store.syncSchedules(MINUTE_FLOW, [minuteDeclaration], new Date(CRASH_T0).toISOString());
    const signals = await Promise.all([killedChild(file, 15), killedChild(file, 25)]);
    assert.deepEqual(signals, ['SIGKILL', 'SIGKILL']);
    const between = await store.getSchedule(MINUTE_FLOW, 'minute');
    assert.ok(between !== undefined && between.started >= 15 && between.started < CRASH_TICKS, 'killed mid-way');

    const catalog = new FlowCatalog();
    catalog.register(minuteFlow);
    supervisor = new Supervisor({
      store,
      catalog,
      clock: { now: () => new Date(CRASH_NOW) },
      schedulePollMs: 10,
      leaseMs: 1000,
    });
    await supervisor.start();
    const done = await waitFor(async () => {
      const row = await store.getSchedule(MINUTE_FLOW, 'minute');
      return row !== undefined && row.next_tick_at > CRASH_NOW && row.pending_tick_at === null ? row : undefined;
    }, 30_000);
    assert.deepEqual([done.missed, done.skipped, done.failed], [0, 0, 0]);
    const runs = await store.listRuns(scheduleSessionId(MINUTE_FLOW), { limit: 1000 });
    const keys = new Set(runs.map((r) => r.idempotency_key));
    assert.equal(runs.length, CRASH_TICKS, 'one run per tick');
    assert.equal(keys.size, CRASH_TICKS, 'no tick twice');
    // A tick started but not recorded before a kill is recorded once, by the worker that finds it (a replay).
    assert.equal(done.started, CRASH_TICKS);
  } finally {
    await supervisor?.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
