import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { crashFlow, workersByRun } from '../fixtures/crash-flow.js';
import { assertRecovered, checkpointedVertices, spawnCrashWorker } from '../fixtures/crash-harness.js';
import { closedSchema, createPendingRun, fullHistory, waitFor } from '../helpers.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema, withPgClient } from '../../support/postgres.js';

const url = TEST_PG_URL;
const schema = uniqueSchema('runs_engine');
const RUNS = 6;
const LEASE_MS = 400;

/** True when `worker` began the first but not yet the last vertex of some run, according to the side file. */
function hasRunInProgress(text: string, worker: string): boolean {
  const begun = new Map<string, Set<string>>();
  for (const line of text.split('\n')) {
    const [run, vertex, , who] = line.split(' ');
    if (run === undefined || vertex === undefined || who !== worker) continue;
    begun.set(run, (begun.get(run) ?? new Set()).add(vertex));
  }
  return [...begun.values()].some((vertices) => vertices.has('v0') && !vertices.has('v4'));
}

const reason = await postgresSkipReason();

describe('two workers sharing one PostgreSQL schema', { skip: reason ?? false }, () => {
  test('when one worker is killed mid-run the survivor adopts its runs after the lease expires', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-engine-pg-'));
    const sideFile = join(dir, 'executions.log');
    const sessionId = randomUUID();
    const store = new PostgresRunStore({ connectionString: url, schema });
    await store.open(); // creates the schema before the child connects
    const doomed = spawnCrashWorker({
      store: { kind: 'postgres', url, schema },
      sideFile,
      sessionId,
      runs: RUNS,
      worker: 'doomed',
      leaseMs: LEASE_MS,
      // Slow vertices keep the doomed worker busy (2 runs at a time, 0.5 s each) until the survivor has started and
      // taken runs of its own, even on a loaded machine.
      stepMs: 100,
    });
    const catalog = new FlowCatalog();
    catalog.register(crashFlow(sideFile, 25, 'survivor'));
    const survivor = new Supervisor({ store, catalog, leaseMs: LEASE_MS, concurrency: 2, workerId: 'survivor' });
    try {
      await doomed.midRun(1);
      await survivor.start();
      // Both workers execute runs, and the doomed one is in the middle of a run (it began a run's first vertex but
      // not its last, so at least one 25 ms vertex is left), when it dies.
      await waitFor(() => {
        const text = readFileSync(sideFile, 'utf8');
        return text.includes(' doomed\n') && text.includes(' survivor\n') && hasRunInProgress(text, 'doomed')
          ? true
          : undefined;
      });
      await doomed.kill();

      const runs = await store.listRuns(sessionId, { limit: 100 });
      assert.equal(runs.length, RUNS);
      const checkpointed = await checkpointedVertices(store, runs, sideFile);
      await waitFor(async () => {
        const all = await store.listRuns(sessionId, { limit: 100 });
        return all.every((r) => r.status === 'completed') ? true : undefined;
      }, 15_000);

      await assertRecovered(store, runs, checkpointed, sideFile, (runId) =>
        withPgClient(async (client) => {
          const result = await client.query<{ revision: number }>(
            `SELECT revision FROM "${schema}".checkpoints WHERE run_id = $1 ORDER BY revision`,
            [runId],
          );
          return result.rows.map((r) => Number(r.revision));
        }),
      );
      const workers = workersByRun(readFileSync(sideFile, 'utf8'));
      const adopted = [...workers.values()].filter((w) => w.has('doomed') && w.has('survivor'));
      assert.ok(adopted.length >= 1, 'the survivor finished runs the killed worker had started');
    } finally {
      await doomed.kill();
      await survivor.stop();
      await store.close();
      await dropSchema(schema);
      rmSync(dir, { recursive: true, force: true });
    }
  });
  test('a cancel from another worker ends a run that commits vertex after vertex, with its reason', async () => {
    // An instant vertex looping on itself: its worker commits as fast as PostgreSQL allows, so a cancel that had to
    // win a compare-and-swap against those commits would never get in.
    const spin = defineFlow<{ n: number }>({
      name: 'spin_flow',
      version: 'v1',
      description: 'an instant vertex looping on itself',
      inputSchema: closedSchema({ n: { type: 'integer' } }),
      graph: { start: 'spin', vertices: { spin: { run: ({ state }) => ({ n: state.n + 1 }), next: 'spin' } } },
    });
    const catalogOf = (): FlowCatalog => {
      const catalog = new FlowCatalog();
      catalog.register(spin);
      return catalog;
    };
    const cancelSchema = uniqueSchema('runs_cancel');
    const ownerStore = new PostgresRunStore({ connectionString: url, schema: cancelSchema });
    const otherStore = new PostgresRunStore({ connectionString: url, schema: cancelSchema });
    await ownerStore.open();
    await otherStore.open();
    const owner = new Supervisor({ store: ownerStore, catalog: catalogOf(), workerId: 'owner' });
    const other = new Supervisor({ store: otherStore, catalog: catalogOf(), workerId: 'other', concurrency: 1 });
    try {
      await owner.start();
      await other.start();
      const sessionId = randomUUID();
      const input = { n: 0 };
      const run = await createPendingRun(ownerStore, { sessionId, name: 'spin_flow', version: 'v1', input });
      await owner.forSession(sessionId).start(run.run_id);
      await waitFor(
        async () => ((await otherStore.getRunById(run.run_id))?.checkpoint_revision ?? 0) >= 30 || undefined,
      );

      const result = await other.forSession(sessionId).cancel(run.run_id, 'enough spinning');
      assert.equal(result.record.status, 'cancelled');
      assert.equal(result.idempotent, false);
      const history = await fullHistory(otherStore, run.run_id);
      assert.deepEqual(
        history.filter((e) => e.kind === 'run_cancelled').map((e) => e.message),
        ['enough spinning'],
        'one terminal entry, with the reason given to the other worker',
      );
      const completions = history.filter((e) => e.kind === 'vertex_completed');
      assert.deepEqual(
        completions.map((e) => e.revision),
        Array.from({ length: completions.length }, (_, i) => i + 1),
        'one completion per revision, in order',
      );
      const terminal = await otherStore.latestCheckpoint(run.run_id);
      assert.equal(terminal?.revision, result.record.checkpoint_revision);
      assert.deepEqual(terminal?.state['flow_state'], { n: completions.length }, 'each recorded vertex applied once');
      const again = await other.forSession(sessionId).cancel(run.run_id, 'again');
      assert.equal(again.idempotent, true);
    } finally {
      await other.stop();
      await owner.stop();
      await otherStore.close();
      await ownerStore.close();
      await dropSchema(cancelSchema);
    }
  });
});
