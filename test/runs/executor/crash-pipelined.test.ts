import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import type { Commit, RunRecord } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, fullHistory, tempStore, waitForStatus } from '../helpers.js';

type N = { n: number };
const VERTICES = ['v0', 'v1', 'v2', 'v3', 'v4'];
const LEASE_MS = 150;

interface Execution {
  readonly vertex: string;
  readonly key: string;
  readonly worker: string;
}

/** Five instant vertices (no timer between them, so their commits are pipelined) logging every execution. */
function instantFlow(log: Execution[], worker: string) {
  return defineFlow<N>({
    name: 'instant_flow',
    version: 'v1',
    description: 'five instant steps',
    inputSchema: closedSchema({ n: { type: 'integer' } }),
    graph: {
      start: 'v0',
      vertices: Object.fromEntries(
        VERTICES.map((id, i) => [
          id,
          {
            run: ({ state, idempotencyKey }: { state: Readonly<N>; idempotencyKey: string }) => {
              log.push({ vertex: id, key: idempotencyKey, worker });
              return { n: state.n + 1 };
            },
            ...(i + 1 < VERTICES.length ? { next: VERTICES[i + 1] as string } : {}),
          },
        ]),
      ),
    },
  });
}

/**
 * A store whose process "dies" when the commit of checkpoint `dieAt` arrives: that commit and every later call never
 * reach the database and never settle (as if the process was killed before the group commit flushed them).
 */
class DyingStore extends SqliteRunStore {
  #dead = false;
  readonly #dieAt: number;

  constructor(path: string, dieAt: number) {
    super(path);
    this.#dieAt = dieAt;
  }

  override commit(commit: Commit): Promise<RunRecord> {
    if (commit.checkpoint?.revision === this.#dieAt) this.#dead = true;
    return this.#dead ? new Promise(() => undefined) : super.commit(commit);
  }

  override claimRuns(worker: string, leaseMs: number, limit: number, exclude?: readonly string[]) {
    return this.#dead ? new Promise<RunRecord[]>(() => undefined) : super.claimRuns(worker, leaseMs, limit, exclude);
  }

  override renewLeases(worker: string, runIds: readonly string[], leaseMs: number) {
    return this.#dead ? new Promise<string[]>(() => undefined) : super.renewLeases(worker, runIds, leaseMs);
  }
}

async function crashAndRecover(pipelineDepth: number): Promise<Execution[]> {
  const temp = await tempStore();
  const log: Execution[] = [];
  // The worker dies when vertex v2's commit (checkpoint revision 3) is issued: v0 and v1 are durable by then.
  const dying = new DyingStore(temp.path, 3);
  await dying.open();
  const doomedCatalog = new FlowCatalog();
  doomedCatalog.register(instantFlow(log, 'doomed'));
  const doomed = new Supervisor({ store: dying, catalog: doomedCatalog, leaseMs: LEASE_MS, pipelineDepth });
  const survivorCatalog = new FlowCatalog();
  survivorCatalog.register(instantFlow(log, 'survivor'));
  const survivor = new Supervisor({ store: temp.store, catalog: survivorCatalog, leaseMs: LEASE_MS });
  try {
    await doomed.start();
    const sessionId = randomUUID();
    const run = await createPendingRun(dying, { sessionId, name: 'instant_flow', version: 'v1', input: { n: 0 } });
    await doomed.forSession(sessionId).start(run.run_id);
    // The survivor adopts the run once the dead worker's lease has expired.
    await survivor.start();
    await waitForStatus(temp.store, run.run_id, 'completed');
    assert.deepEqual(temp.checkpointRevisions(run.run_id), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual((await temp.store.latestCheckpoint(run.run_id))?.state['flow_state'], { n: 5 });
    assert.deepEqual(
      (await fullHistory(temp.store, run.run_id)).filter((e) => e.kind === 'vertex_completed').map((e) => e.vertex_id),
      VERTICES,
    );
    for (const v of VERTICES) {
      const keys = log.filter((e) => e.vertex === v).map((e) => e.key);
      assert.equal(new Set(keys).size, keys.length, `every execution of ${v} had its own idempotency key`);
    }
    return log;
  } finally {
    await survivor.stop();
    await dying.close();
    await temp.cleanup();
  }
}

function runsPerVertex(log: readonly Execution[]): Record<string, string[]> {
  return Object.fromEntries(VERTICES.map((v) => [v, log.filter((e) => e.vertex === v).map((e) => e.worker)]));
}

describe('crash recovery with pipelined commits', () => {
  test('vertices whose commits were not durable run again with new keys; durable ones never do', async () => {
    const log = await crashAndRecover(16);
    // v0 and v1 were durable; v2, v3 and v4 ran ahead of their commits, which the crash lost.
    assert.deepEqual(runsPerVertex(log), {
      v0: ['doomed'],
      v1: ['doomed'],
      v2: ['doomed', 'survivor'],
      v3: ['doomed', 'survivor'],
      v4: ['doomed', 'survivor'],
    });
  });

  test('with pipelineDepth 1 only the vertex whose commit was lost runs again', async () => {
    const log = await crashAndRecover(1);
    assert.deepEqual(runsPerVertex(log), {
      v0: ['doomed'],
      v1: ['doomed'],
      v2: ['doomed', 'survivor'],
      v3: ['survivor'],
      v4: ['survivor'],
    });
  });
});
