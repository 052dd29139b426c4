import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowCatalog } from '../../src/runs/flow/catalog.js';
import { PostgresRunStore } from '../../src/runs/store/postgres.js';
import { Supervisor } from '../../src/runs/supervisor/supervisor.js';
import { crashFlow, workersByRun } from './fixtures/crash-flow.js';
import { assertRecovered, checkpointedVertices, spawnCrashWorker } from './fixtures/crash-harness.js';
import { waitFor } from './helpers.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema, withPgClient } from '../support/postgres.js';

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
      const checkpointed = await checkpointedVertices(store, runs);
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
});
