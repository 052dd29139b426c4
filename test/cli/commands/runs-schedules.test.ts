/**
 * `rimthan runs schedules` as an operator types it: a SQLite store whose worker ran a flow schedule, listed as a table
 * and as JSON (flow, cron, zone, policies, next and last tick, last run, counts); usage errors and a missing store.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import type { JsonObject } from '../../../src/core/index.js';
import { defineFlow, FlowCatalog, Supervisor } from '../../../src/runs/index.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { closedSchema, waitFor } from '../../runs/helpers.js';
import { captureIo } from '../support.js';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 30);

describe('rimthan runs schedules', () => {
  let work: string;
  let path: string;
  let runId: string;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'rimthan-schedules-cli-'));
    path = join(work, 'runs.db');
    const store = new SqliteRunStore(path);
    await store.open();
    const catalog = new FlowCatalog();
    catalog.register(
      defineFlow<JsonObject, JsonObject>({
        name: 'report_flow',
        version: 'v2',
        description: 'a nightly report',
        inputSchema: closedSchema({}),
        schedules: [{ id: 'nightly', cron: '* * * * *', timezone: 'Europe/Paris', overlap: 'buffer_one' }],
        graph: { start: 'a', vertices: { a: { run: () => undefined } } },
      }),
    );
    const clock = { at: T0, now: () => new Date(clock.at) };
    const supervisor = new Supervisor({ store, catalog, clock, schedulePollMs: 15, leaseMs: 2000 });
    await supervisor.start();
    clock.at = T0 + 30_000;
    const row = await waitFor(async () => {
      const r = await store.getSchedule('report_flow', 'nightly');
      return r !== undefined && r.started === 1 ? r : undefined;
    });
    runId = row.last_run_id ?? '';
    await supervisor.stop();
    await store.close();
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const cli = async (argv: string[]) => {
    const io = captureIo(work);
    const code = await runCli(['runs', 'schedules', ...argv], io);
    return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
  };

  test('prints a table of the schedules with their next and last ticks', async () => {
    const { code, out, err } = await cli(['--store', path]);
    assert.equal(code, 0, err);
    const [header, line] = out.split('\n');
    assert.match(
      header ?? '',
      /^FLOW\s+SCHEDULE\s+CRON\s+ZONE\s+OVERLAP\s+CATCH-UP\s+NEXT\s+LAST TICK\s+LAST RUN\s+COUNTS$/,
    );
    assert.match(line ?? '', /^report_flow@v2\s+nightly\s+\* \* \* \* \*\s+Europe\/Paris\s+buffer_one\s+none\s+/);
    assert.ok(line?.includes('2030-01-01T00:02:00.000Z'), 'next tick');
    assert.ok(line?.includes(`2030-01-01T00:01:00.000Z  ${runId}`), 'last tick and run');
    assert.ok(line?.endsWith('started 1, skipped 0, missed 0, failed 0'));
  });

  test('--json prints the records', async () => {
    const { code, out } = await cli(['--store', `sqlite:${path}`, '--json']);
    assert.equal(code, 0);
    const [schedule] = (JSON.parse(out) as { schedules: JsonObject[] }).schedules;
    assert.deepEqual(schedule, {
      flow: 'report_flow',
      version: 'v2',
      schedule: 'nightly',
      cron: '* * * * *',
      timezone: 'Europe/Paris',
      overlap: 'buffer_one',
      catch_up: 'none',
      session_id: 'schedule:report_flow',
      next_tick_at: '2030-01-01T00:02:00.000Z',
      last_tick_at: '2030-01-01T00:01:00.000Z',
      last_run_id: runId,
      pending_tick_at: null,
      buffered_tick_at: null,
      started: 1,
      skipped: 0,
      missed: 0,
      failed: 0,
      last_error: '',
    });
  });

  test('usage errors and a missing store are refused', async () => {
    const extra = await cli(['nightly', '--store', path]);
    assert.equal(extra.code, 2);
    assert.match(extra.err, /no positional arguments/);
    const missing = await cli(['--store', join(work, 'nope.db')]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /no run store at/);
  });
});
