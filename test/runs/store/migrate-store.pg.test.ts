/**
 * `rimthan runs migrate-store`: a SQLite store with runs in every status (an in-flight one and a queued one included)
 * moves to PostgreSQL with its history, checkpoints, inputs, idempotency keys and sessions, verified; the runs go on
 * there, and the old file neither runs them again nor can be moved twice.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import type { RunRecord, RunStatus, RunStore } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { captureIo } from '../../cli/support.js';
import { INPUT_SHA, INPUT_TEXT, newRun } from './store-fixtures.js';
import { closedSchema, createPendingRun, deferred, fullHistory, waitFor, waitForStatus } from '../helpers.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';

const reason = await postgresSkipReason();
type N = { n: number };

function catalog(gate: Promise<void>): FlowCatalog {
  const c = new FlowCatalog();
  const input = closedSchema({ n: { type: 'integer' } });
  c.register(
    defineFlow<N>({
      name: 'quick_flow',
      version: 'v1',
      description: 'one step',
      inputSchema: input,
      graph: { start: 'go', vertices: { go: { run: ({ state }) => ({ n: state.n + 1 }) } } },
    }),
  );
  c.register(
    defineFlow<N>({
      name: 'ask_flow',
      version: 'v1',
      description: 'asks once',
      inputSchema: input,
      resumeSchema: closedSchema({ ok: { type: 'boolean' } }),
      graph: {
        start: 'ask',
        vertices: {
          ask: {
            run: ({ resume, interrupt }) => {
              if (resume === undefined) interrupt('ok?');
            },
            next: 'end',
          },
          end: { run: ({ state }) => ({ n: state.n + 1 }) },
        },
      },
    }),
  );
  c.register(
    defineFlow<N>({
      name: 'held_flow',
      version: 'v1',
      description: 'waits at its second step until the gate opens',
      inputSchema: input,
      graph: {
        start: 'one',
        vertices: {
          one: { run: ({ state }) => ({ n: state.n + 1 }), next: 'two' },
          two: {
            run: async ({ state }) => {
              await gate;
              return { n: state.n + 1 };
            },
          },
        },
      },
    }),
  );
  c.register(
    defineFlow<N>({
      name: 'broken_flow',
      version: 'v1',
      description: 'an edge to nowhere',
      inputSchema: input,
      graph: { start: 'go', vertices: { go: { run: () => undefined, next: () => 'nowhere' } } },
    }),
  );
  return c;
}

async function snapshot(store: RunStore, runs: readonly RunRecord[]) {
  return Promise.all(
    runs.map(async (r) => {
      const { created_seq: _seq, ...record } = (await store.getRunById(r.run_id)) as RunRecord;
      return {
        record,
        history: await fullHistory(store, r.run_id),
        checkpoint: await store.latestCheckpoint(r.run_id),
      };
    }),
  );
}

describe('migrate-store from SQLite to PostgreSQL', { skip: reason ?? false }, () => {
  test(
    'runs in every status move with everything they own, verified, and go on on PostgreSQL',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-migrate-'));
      const path = join(dir, 'runs.db');
      const schema = uniqueSchema('runs_moved');
      const gate = deferred();
      const sqlite = new SqliteRunStore(path);
      await sqlite.open();
      const worker = new Supervisor({ store: sqlite, catalog: catalog(gate.promise), concurrency: 1, stopGraceMs: 0 });
      const target = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 3 } });
      let onPg: Supervisor | undefined;
      try {
        await worker.start();
        const sessionId = randomUUID();
        const ctl = worker.forSession(sessionId);
        const create = (name: string, n: number) =>
          createPendingRun(sqlite, { sessionId, name, version: 'v1', input: { n } });
        const runs: Record<string, RunRecord> = {};
        runs['completed'] = await create('quick_flow', 1);
        await ctl.start(runs['completed'].run_id);
        await waitForStatus(sqlite, runs['completed'].run_id, 'completed');
        runs['interrupted'] = await create('ask_flow', 2);
        await ctl.start(runs['interrupted'].run_id);
        await waitForStatus(sqlite, runs['interrupted'].run_id, 'interrupted');
        runs['cancelled'] = await create('ask_flow', 3);
        await ctl.start(runs['cancelled'].run_id);
        await waitForStatus(sqlite, runs['cancelled'].run_id, 'interrupted');
        await ctl.cancel(runs['cancelled'].run_id, 'not needed');
        runs['failed'] = await create('broken_flow', 4);
        await ctl.start(runs['failed'].run_id);
        await waitForStatus(sqlite, runs['failed'].run_id, 'failed');
        runs['running'] = await create('held_flow', 5);
        await ctl.start(runs['running'].run_id);
        await waitFor(async () =>
          (await sqlite.getRunById(runs['running']?.run_id ?? ''))?.checkpoint_revision === 1 ? true : undefined,
        );
        runs['queued'] = await create('held_flow', 6); // the only slot is busy: it waits as pending, seeded
        assert.equal((await ctl.start(runs['queued'].run_id)).status, 'pending');
        await sqlite.putInput(INPUT_SHA, INPUT_TEXT);
        runs['unseeded'] = await sqlite.createRun(
          newRun(sessionId, { definition_name: 'quick_flow', idempotency_key: 'key-1', input_sha256: INPUT_SHA }),
        );
        // Events kept for a run (durable waits) move with it, numbered as they were.
        const event = (event_id: string, text: string) => ({
          run_id: runs['interrupted']?.run_id ?? '',
          event_id,
          name: 'note',
          payload: { text },
          sent_at: new Date().toISOString(),
        });
        assert.equal(await sqlite.sendEvent(event('e-1', 'first')), 'delivered');
        assert.equal(await sqlite.sendEvent(event('e-2', 'second')), 'delivered');
        await worker.stop(); // the in-flight run stays running at its checkpoint, its lease released
        const all = Object.values(runs);
        const statuses = Object.fromEntries(
          await Promise.all(
            Object.entries(runs).map(async ([k, r]) => [k, (await sqlite.getRunById(r.run_id))?.status]),
          ),
        );
        assert.deepEqual(statuses, {
          completed: 'completed',
          interrupted: 'interrupted',
          cancelled: 'cancelled',
          failed: 'failed',
          running: 'running',
          queued: 'pending',
          unseeded: 'pending',
        });
        const before = await snapshot(sqlite, all);
        const counts = await sqlite.statusCounts();
        const listed = (await sqlite.listRuns(sessionId, { limit: 100 })).map((r) => r.run_id);
        await sqlite.close();

        const io = captureIo(dir);
        const code = await runCli(
          ['runs', 'migrate-store', '--from', `sqlite:${path}`, '--to', TEST_PG_URL, '--schema', schema],
          io,
        );
        assert.equal(code, 0, io.stderr.join('\n'));
        const report = JSON.parse(io.stdout.join('\n')) as { runs: number; unfinished: number; digest: string };
        assert.equal(report.runs, all.length);
        assert.equal(report.unfinished, 4);
        assert.match(report.digest, /^[0-9a-f]{64}$/);
        assert.ok(
          io.stderr.some((l) => l.includes('copied 7/7 runs')),
          'progress is reported',
        );
        assert.ok(io.stderr.some((l) => l.includes('moved and verified')));

        await target.open();
        assert.deepEqual(await snapshot(target, all), before, 'records, history and checkpoints are identical');
        assert.deepEqual(await target.statusCounts(), counts);
        assert.deepEqual(
          (await target.listRuns(sessionId, { limit: 100 })).map((r) => r.run_id),
          listed,
          'same order',
        );
        assert.equal((await target.findByIdempotencyKey(sessionId, 'key-1'))?.run_id, runs['unseeded'].run_id);
        assert.equal(await target.getInput(INPUT_SHA), INPUT_TEXT);
        const moved = runs['interrupted'].run_id;
        assert.deepEqual((await target.eventAt(moved, 'note', 0))?.payload, { text: 'first' });
        assert.deepEqual((await target.eventAt(moved, 'note', 1))?.payload, { text: 'second' });
        assert.equal(await target.sendEvent(event('e-1', 'again')), 'duplicate', 'event ids stay delivered once');

        // The old file keeps its runs held: a worker opened on it by mistake claims nothing, and it cannot move twice.
        const old = new SqliteRunStore(path);
        await old.open();
        assert.deepEqual(await old.claimRuns('mistake', 60_000, 10), []);
        await old.close();
        const again = captureIo(dir);
        assert.equal(
          await runCli(
            ['runs', 'migrate-store', '--from', `sqlite:${path}`, '--to', TEST_PG_URL, '--schema', schema],
            again,
          ),
          1,
        );
        assert.match(again.stderr.join('\n'), /moved already/);

        // On PostgreSQL the in-flight and queued runs finish; the interrupted one resumes.
        gate.resolve();
        onPg = new Supervisor({ store: target, catalog: catalog(gate.promise) });
        await onPg.start();
        const finished = async (run: RunRecord, status: RunStatus) =>
          (await waitForStatus(target, run.run_id, status)).status;
        assert.equal(await finished(runs['running'], 'completed'), 'completed');
        assert.equal(await finished(runs['queued'], 'completed'), 'completed');
        await onPg.forSession(sessionId).resume(runs['interrupted'].run_id, { ok: true });
        assert.equal(await finished(runs['interrupted'], 'completed'), 'completed');
        const resumedHistory = await fullHistory(target, runs['running'].run_id);
        assert.deepEqual(
          resumedHistory.filter((e) => e.kind === 'vertex_completed').map((e) => e.vertex_id),
          ['one', 'two'],
          'the vertex completed on SQLite did not run again',
        );
      } finally {
        gate.resolve();
        await onPg?.stop();
        await worker.stop();
        await sqlite.close();
        await target.close();
        await dropSchema(schema);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
