/**
 * Three worker processes share one PostgreSQL schema under 200 concurrent runs; one is killed with SIGKILL in the
 * middle. Every run completes, no vertex whose completion was durable runs again, and no run completes twice.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { workersByRun } from '../fixtures/crash-flow.js';
import {
  assertRecovered,
  checkpointedVertices,
  spawnCrashWorker,
  type WorkerChild,
} from '../fixtures/crash-harness.js';
import { fullHistory, waitFor } from '../helpers.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema, withPgClient } from '../../support/postgres.js';

const reason = await postgresSkipReason();
const RUNS_PER_WORKER = [67, 67, 66];
const LEASE_MS = 500;

describe('three PostgreSQL workers, one killed', { skip: reason ?? false }, () => {
  test(
    'kill -9 of one of three workers under 200 concurrent runs loses no run and repeats no durable vertex',
    { timeout: 240_000 },
    async () => {
      const schema = uniqueSchema('runs_three');
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-three-'));
      const sideFile = join(dir, 'executions.log');
      const holdFile = join(dir, 'go');
      const sessionId = randomUUID();
      const store = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 4 } });
      await store.open();
      const workers: WorkerChild[] = RUNS_PER_WORKER.map((runs, i) =>
        spawnCrashWorker({
          store: { kind: 'postgres', url: TEST_PG_URL, schema },
          sideFile,
          sessionId,
          runs,
          worker: `w${i}`,
          leaseMs: LEASE_MS,
          stepMs: 30,
          concurrency: 16,
          // Every run waits at v1 until all 200 starts are acknowledged, so all of them are in flight together.
          hold: { vertex: 'v1', file: holdFile },
        }),
      );
      try {
        // Each worker acknowledges its ~67 starts one after another: generous hang guard for a loaded machine.
        for (const w of workers) await w.midRun(1, 180_000);
        const total = RUNS_PER_WORKER.reduce((a, b) => a + b, 0);
        const all = await store.listRuns(sessionId, { limit: 1000 });
        assert.equal(all.length, total, 'every start was acknowledged');
        assert.ok(
          all.every((r) => r.status !== 'completed'),
          'all 200 runs are in flight at once',
        );
        writeFileSync(holdFile, 'go');
        // Kill w0 once it is past the hold on some runs: it has runs in the middle, and most runs are still open.
        await waitFor(() => (/ v2 \S+ w0\n/.test(readFileSync(sideFile, 'utf8')) ? true : undefined), 60_000);
        await workers[0]?.kill();
        const checkpointed = await checkpointedVertices(
          store,
          await store.listRuns(sessionId, { limit: 1000 }),
          sideFile,
        );
        await waitFor(async () => {
          const runs = await store.listRuns(sessionId, { limit: 1000 });
          return runs.every((r) => r.status === 'completed') ? true : undefined;
        }, 180_000);

        const runs = await store.listRuns(sessionId, { limit: 1000 });
        assert.equal(runs.length, total, 'no run lost');
        await assertRecovered(store, runs, checkpointed, sideFile, (runId) =>
          withPgClient(async (client) => {
            const result = await client.query<{ revision: number }>(
              `SELECT revision FROM "${schema}".checkpoints WHERE run_id = $1 ORDER BY revision`,
              [runId],
            );
            return result.rows.map((r) => Number(r.revision));
          }),
        );
        for (const run of runs) {
          const history = await fullHistory(store, run.run_id);
          assert.equal(history.filter((e) => e.kind === 'run_completed').length, 1, 'one completion per run');
        }
        const byRun = workersByRun(readFileSync(sideFile, 'utf8'));
        const adopted = [...byRun.values()].filter((w) => w.has('w0') && (w.has('w1') || w.has('w2')));
        assert.ok(adopted.length >= 1, 'the survivors finished runs the killed worker had begun');
        const executors = new Set([...byRun.values()].flatMap((w) => [...w]));
        assert.deepEqual([...executors].sort(), ['w0', 'w1', 'w2'], 'every worker took part');
      } finally {
        for (const w of workers) await w.kill();
        await store.close();
        await dropSchema(schema);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
