/**
 * Lease fencing across processes: a worker paused (SIGSTOP) in the middle of a vertex past its lease loses the run to
 * another worker; when it is resumed (SIGCONT) its vertex finishes and its commit is refused, so the run advances on
 * one worker only. No timing thresholds: every step waits on a condition.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { crashFlow, CRASH_VERTICES } from '../fixtures/crash-flow.js';
import { spawnCrashWorker } from '../fixtures/crash-harness.js';
import { fullHistory, waitFor } from '../helpers.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema, withPgClient } from '../../support/postgres.js';

const reason = await postgresSkipReason();
const LEASE_MS = 300;

/** Workers that began `vertex` of `runId`, in order, from the side file. */
function begunBy(sideFile: string, runId: string, vertex: string): string[] {
  if (!existsSync(sideFile)) return [];
  return readFileSync(sideFile, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter(([run, v]) => run === runId && v === vertex)
    .map((parts) => parts[3] ?? '');
}

describe('lease fencing on PostgreSQL', { skip: reason ?? false }, () => {
  test('a worker paused past its lease loses the run to another and cannot commit when it resumes', async () => {
    const schema = uniqueSchema('runs_fence');
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-fence-'));
    const sideFile = join(dir, 'executions.log');
    const refusedFile = join(dir, 'refused.log');
    const holdFile = join(dir, 'go');
    const hold = { vertex: 'v2', file: holdFile };
    const sessionId = randomUUID();
    const store = new PostgresRunStore({ connectionString: TEST_PG_URL, schema });
    await store.open();
    const paused = spawnCrashWorker({
      store: { kind: 'postgres', url: TEST_PG_URL, schema },
      sideFile,
      sessionId,
      runs: 1,
      worker: 'paused',
      leaseMs: LEASE_MS,
      stepMs: 1,
      hold,
      refusedFile,
    });
    const catalog = new FlowCatalog();
    catalog.register(crashFlow(sideFile, 1, 'taker', hold));
    const taker = new Supervisor({ store, catalog, leaseMs: LEASE_MS, workerId: 'taker' });
    try {
      await paused.midRun(1, 60_000);
      const [run] = await store.listRuns(sessionId, { limit: 10 });
      assert.ok(run !== undefined);
      // The worker is inside v2 (v0 and v1 are durable) when it is paused.
      await waitFor(
        async () =>
          begunBy(sideFile, run.run_id, 'v2').includes('paused') &&
          ((await store.getRunById(run.run_id))?.checkpoint_revision ?? 0) >= 2
            ? true
            : undefined,
        60_000,
      );
      paused.child.kill('SIGSTOP');
      await taker.start();
      // Its lease runs out; the other worker claims the run (a fencing write) and runs v2 itself.
      await waitFor(() => (begunBy(sideFile, run.run_id, 'v2').includes('taker') ? true : undefined), 60_000);
      writeFileSync(holdFile, 'go');
      await waitFor(
        async () => ((await store.getRunById(run.run_id))?.status === 'completed' ? true : undefined),
        60_000,
      );
      const before = (await store.getRunById(run.run_id))?.record_revision;

      paused.child.kill('SIGCONT');
      // The resumed worker's v2 finishes (the file exists) and its commit, built on its old lease, is refused.
      await waitFor(
        () =>
          existsSync(refusedFile) && readFileSync(refusedFile, 'utf8').includes(`${run.run_id} paused`)
            ? true
            : undefined,
        60_000,
      );

      const after = await store.getRunById(run.run_id);
      assert.equal(after?.record_revision, before, 'the resumed worker wrote nothing');
      assert.equal(after?.status, 'completed');
      const final = await store.latestCheckpoint(run.run_id);
      assert.deepEqual(final?.state['flow_state'], { n: CRASH_VERTICES.length }, 'every vertex applied once');
      const history = await fullHistory(store, run.run_id);
      assert.deepEqual(
        history.filter((e) => e.kind === 'vertex_completed').map((e) => e.vertex_id),
        [...CRASH_VERTICES],
      );
      assert.equal(history.filter((e) => e.kind === 'run_completed').length, 1);
      const revisions = await withPgClient(async (client) =>
        (
          await client.query<{ revision: number }>(
            `SELECT revision FROM "${schema}".checkpoints WHERE run_id = $1 ORDER BY revision`,
            [run.run_id],
          )
        ).rows.map((r) => Number(r.revision)),
      );
      assert.deepEqual(revisions, [0, 1, 2, 3, 4, 5]);
    } finally {
      paused.child.kill('SIGCONT');
      await paused.kill();
      await taker.stop();
      await store.close();
      await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
