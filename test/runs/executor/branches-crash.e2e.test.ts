/**
 * Parallel branches and a crash between branch commits, on both backends: a worker process runs four branches per run,
 * three commit and the fourth is held; the worker is SIGKILLed; a new supervisor finishes every run and re-runs only
 * the branch that had not committed (the fork, the committed branches and the join run once each).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeCheckpoint } from '../../../src/runs/executor/checkpoint-state.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { branchCrashFlow } from '../fixtures/branch-crash-flow.js';
import { readExecutions } from '../fixtures/crash-flow.js';
import { checkpointedVertices, spawnCrashWorker } from '../fixtures/crash-harness.js';
import { crashBackends } from '../fixtures/crash-backends.js';
import { fullHistory, waitFor } from '../helpers.js';

const RUNS = 4;
const backends = await crashBackends('runs_branch_crash');

for (const backend of backends) {
  describe(`parallel branches across a crash: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('after SIGKILL between branch commits only the uncommitted branch runs again', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-branch-crash-'));
      const opened = backend.open(dir);
      await opened.store.open();
      const sideFile = join(dir, 'executions.log');
      const sessionId = randomUUID();
      const worker = spawnCrashWorker({
        store: opened.config,
        sideFile,
        sessionId,
        runs: RUNS,
        worker: 'child',
        leaseMs: 300,
        stepMs: 5,
        concurrency: RUNS,
        flow: 'branches',
        hold: { vertex: 'b3', file: join(dir, 'never') },
      });
      let supervisor: Supervisor | undefined;
      try {
        await worker.midRun(RUNS * 5); // fork and four branch starts per run
        // Wait until b0..b2 are durable in every run while b3 is held: the crash falls between branch commits.
        const runs = await waitFor(async () => {
          const all = await opened.store.listRuns(sessionId, { limit: 100 });
          if (all.length < RUNS) return undefined;
          for (const run of all) {
            const cp = await opened.store.latestCheckpoint(run.run_id);
            const done = decodeCheckpoint(cp?.state ?? {})?.frontier?.done ?? [];
            if (done.filter((d) => d !== null).length !== 3) return undefined;
          }
          return all;
        });
        await worker.kill();
        const checkpointed = await checkpointedVertices(opened.store, runs, sideFile);
        assert.equal(checkpointed.size, RUNS * 4, 'fork and three branches durable in every run');

        const catalog = new FlowCatalog();
        catalog.register(branchCrashFlow(sideFile, 1, 'parent'));
        supervisor = new Supervisor({ store: opened.store, catalog, leaseMs: 300, concurrency: RUNS });
        await supervisor.start();
        await waitFor(async () => {
          const all = await opened.store.listRuns(sessionId, { limit: 100 });
          return all.every((r) => r.status === 'completed') ? true : undefined;
        });

        const executions = readExecutions(readFileSync(sideFile, 'utf8'));
        for (const run of runs) {
          const cp = await opened.store.latestCheckpoint(run.run_id);
          assert.deepEqual(cp?.state['flow_state'], { n: 1, b0: 1, b1: 2, b2: 3, b3: 4, sum: 10 });
          const runCount = (v: string) => executions.get(`${run.run_id} ${v}`)?.length ?? 0;
          assert.deepEqual(
            ['fork', 'b0', 'b1', 'b2', 'b3', 'join'].map(runCount),
            [1, 1, 1, 1, 2, 1],
            'only the branch that had not committed ran again',
          );
          const keys = executions.get(`${run.run_id} b3`) ?? [];
          assert.equal(new Set(keys).size, 2, 'the re-run got a new idempotency key');
          const completed = (await fullHistory(opened.store, run.run_id)).filter((e) => e.kind === 'vertex_completed');
          assert.deepEqual(completed.map((e) => e.vertex_id).sort(), ['b0', 'b1', 'b2', 'b3', 'fork', 'join']);
        }
      } finally {
        await worker.kill();
        await supervisor?.stop();
        await opened.store.close();
        await opened.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
