import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import type { Commit, RunRecord } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, engineFixture, fullHistory, waitFor, waitForStatus } from '../helpers.js';

type N = { n: number };
const N_SCHEMA = closedSchema({ n: { type: 'integer' } });
const CHAIN = 8;

/** CHAIN instant vertices v0 → … → v7, each adding one. */
const chainFlow = defineFlow<N>({
  name: 'chain_flow',
  version: 'v1',
  description: 'instant sequential vertices',
  inputSchema: N_SCHEMA,
  graph: {
    start: 'v0',
    vertices: Object.fromEntries(
      Array.from({ length: CHAIN }, (_, i) => [
        `v${i}`,
        {
          run: ({ state }: { state: Readonly<N> }) => ({ n: state.n + 1 }),
          ...(i + 1 < CHAIN ? { next: `v${i + 1}` } : {}),
        },
      ]),
    ),
  },
});

/** One instant vertex that loops on itself (practically) forever. */
const spinFlow = defineFlow<N>({
  name: 'spin_flow',
  version: 'v1',
  description: 'an instant vertex looping on itself',
  inputSchema: N_SCHEMA,
  graph: {
    start: 'spin',
    vertices: {
      spin: { run: ({ state }) => ({ n: state.n + 1 }), next: (s) => (s.n < 1_000_000_000 ? 'spin' : undefined) },
    },
  },
});

/** A SQLite store that notes, for each checkpoint commit, the number of the transaction that made it durable. */
class TracingStore extends SqliteRunStore {
  readonly durableIn = new Map<number, number>();
  readonly claimed: string[] = [];

  override async commit(commit: Commit): Promise<RunRecord> {
    const record = await super.commit(commit);
    if (commit.checkpoint !== undefined) this.durableIn.set(commit.checkpoint.revision, this.transactions);
    return record;
  }

  override async claimRuns(worker: string, leaseMs: number, limit: number, exclude?: readonly string[]) {
    const runs = await super.claimRuns(worker, leaseMs, limit, exclude);
    this.claimed.push(...runs.map((r) => r.run_id));
    return runs;
  }
}

async function runChain(pipelineDepth: number): Promise<{ store: TracingStore; run: RunRecord }> {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-pipeline-'));
  const store = new TracingStore(join(dir, 'runs.db'));
  await store.open();
  const catalog = new FlowCatalog();
  catalog.register(chainFlow);
  const supervisor = new Supervisor({ store, catalog, pipelineDepth });
  try {
    await supervisor.start();
    const sessionId = randomUUID();
    const pending = await createPendingRun(store, { sessionId, name: 'chain_flow', version: 'v1', input: { n: 0 } });
    await supervisor.forSession(sessionId).start(pending.run_id);
    const run = await waitForStatus(store, pending.run_id, 'completed');
    assert.deepEqual((await store.latestCheckpoint(run.run_id))?.state['flow_state'], { n: CHAIN });
    return { store, run };
  } finally {
    await supervisor.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('pipelined vertex commits', () => {
  test('instant vertices share one durable transaction after the seed; the seed took the lease, so no claim ran', async () => {
    const { store, run } = await runChain(16);
    const seedTx = store.durableIn.get(0);
    const vertexTx = new Set(Array.from({ length: CHAIN }, (_, i) => store.durableIn.get(i + 1)));
    assert.ok(seedTx !== undefined);
    assert.equal(vertexTx.size, 1, 'every vertex commit became durable in the same transaction');
    assert.ok(
      [...vertexTx].every((tx) => tx !== undefined && tx > seedTx),
      'and only after the seed',
    );
    assert.equal(store.claimed.includes(run.run_id), false, 'executed on the starting worker without a claim');
  });

  test('with pipelineDepth 1 every vertex commit is durable before the next vertex starts', async () => {
    const { store } = await runChain(1);
    const txs = Array.from({ length: CHAIN + 1 }, (_, i) => store.durableIn.get(i));
    assert.equal(new Set(txs).size, CHAIN + 1, 'one transaction per checkpoint');
  });

  for (const where of ['here', 'on another worker'] as const) {
    test(`cancelling a pipelined run ${where} ends it with one terminal checkpoint and a gap-free, consistent history`, async () => {
      const f = await engineFixture((c) => c.register(spinFlow));
      const other = new Supervisor({ store: f.store, catalog: f.catalog, leaseMs: 2000 });
      try {
        await other.start();
        const ack = await f.started('spin_flow', { n: 0 });
        await waitFor(
          async () => ((await f.store.getRunById(ack.run_id))?.checkpoint_revision ?? 0) >= 40 || undefined,
        );
        const controller = where === 'here' ? f.session : other.forSession(f.sessionId);
        const result = await controller.cancel(ack.run_id, 'enough');
        assert.equal(result.record.status, 'cancelled');
        const last = result.record.checkpoint_revision;
        assert.deepEqual(
          f.checkpointRevisions(ack.run_id),
          Array.from({ length: last + 1 }, (_, i) => i),
        );
        const history = await fullHistory(f.store, ack.run_id);
        const completions = history.filter((e) => e.kind === 'vertex_completed');
        assert.deepEqual(
          completions.map((e) => e.revision),
          Array.from({ length: completions.length }, (_, i) => i + 1),
          'one completion per revision, in order',
        );
        assert.deepEqual(
          history.filter((e) => e.kind === 'run_cancelled').map((e) => [e.revision, e.message]),
          [[last, 'enough']],
        );
        const terminal = await f.store.latestCheckpoint(ack.run_id);
        assert.deepEqual(terminal?.state['flow_state'], { n: completions.length }, 'each recorded vertex applied once');
        assert.equal(terminal?.state['status'], 'cancelled');
        await waitFor(() => (f.supervisor.activeRuns === 0 ? true : undefined));
      } finally {
        await other.stop();
        await f.close();
      }
    });
  }
});
