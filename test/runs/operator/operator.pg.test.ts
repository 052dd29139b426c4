/**
 * Operator actions on both backends: the deploy check at start-up (refuse naming the runs, or fail them), the explicit
 * upgrade of an interrupted run to a newer flow version that declares it, and the restart of a failed run from a
 * completed vertex. Every change shows in history; nothing before it is rewritten.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../../src/core/clock.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import type { FlowSpec } from '../../../src/runs/flow/types.js';
import { restartRun, upgradeRun } from '../../../src/runs/operator/index.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import type { RunStore } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, fullHistory, waitForStatus } from '../helpers.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';

const pgReason = await postgresSkipReason();

type State = { n: number; note?: string };

const STATE_V2 = closedSchema({ n: { type: 'integer' }, note: { type: 'string' } }, []);
const STATE_V2_STRICT = { ...STATE_V2, required: ['n', 'note'] };

/** v1: add → ask (waits for input) → add again. */
const v1 = defineFlow<State>({
  name: 'approval_flow',
  version: 'v1',
  description: 'asks once',
  inputSchema: closedSchema({ n: { type: 'integer' } }),
  resumeSchema: closedSchema({ ok: { type: 'boolean' } }),
  graph: {
    start: 'add',
    vertices: {
      add: { run: ({ state }) => ({ n: state.n + 1 }), next: 'ask' },
      ask: {
        run: ({ resume, interrupt }) => {
          if (resume === undefined) interrupt('approve?');
        },
        next: 'done',
      },
      done: { run: ({ state }) => ({ n: state.n + 10 }) },
    },
  },
});

/** v2 takes over v1 runs paused at `ask` (now `review`), adding a note to the state. */
function v2(strict: boolean, transform: boolean): FlowSpec<State, State> {
  return defineFlow<State>({
    name: 'approval_flow',
    version: 'v2',
    description: 'asks once, with a note',
    inputSchema: closedSchema({ n: { type: 'integer' } }),
    resumeSchema: closedSchema({ approved: { type: 'boolean' } }),
    stateSchema: strict ? STATE_V2_STRICT : STATE_V2,
    upgrades: [
      {
        from: 'v1',
        vertices: { ask: 'review' },
        ...(transform ? { state: (old) => ({ n: Number(old['n']), note: 'from v1' }) } : {}),
      },
    ],
    graph: {
      start: 'review',
      vertices: {
        review: {
          run: ({ resume, interrupt }) => {
            if (resume === undefined) interrupt('review?');
          },
          next: 'finish',
        },
        finish: { run: ({ state }) => ({ n: state.n + 100 }) },
      },
    },
  });
}

let edgeBroken = true;
let bRuns = 0;
/** a → b → c, whose edge after b names no vertex while `edgeBroken` (the run fails), then is fixed. */
const fragile = defineFlow<State>({
  name: 'fragile_flow',
  version: 'v1',
  description: 'a broken edge',
  inputSchema: closedSchema({ n: { type: 'integer' } }),
  graph: {
    start: 'a',
    vertices: {
      a: { run: ({ state }) => ({ n: state.n + 1 }), next: 'b' },
      b: {
        run: ({ state }) => {
          bRuns++;
          return { n: state.n + 1 };
        },
        next: () => (edgeBroken ? 'nowhere' : 'c'),
      },
      c: { run: ({ state }) => ({ n: state.n + 1 }) },
    },
  },
});

interface Backend {
  readonly name: string;
  readonly skip?: string;
  open(): Promise<{ store: RunStore; cleanup: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'SQLite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-operator-'));
      const opened: RunStore[] = [];
      const make = async (): Promise<RunStore> => {
        const s = new SqliteRunStore(join(dir, 'runs.db'));
        await s.open();
        opened.push(s);
        return s;
      };
      return {
        store: await make(),
        async cleanup() {
          for (const s of opened) await s.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    ...(pgReason === undefined ? {} : { skip: pgReason }),
    async open() {
      const schema = uniqueSchema('runs_operator');
      const opened: RunStore[] = [];
      const make = async (): Promise<RunStore> => {
        const s = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 3 } });
        await s.open();
        opened.push(s);
        return s;
      };
      return {
        store: await make(),
        async cleanup() {
          for (const s of opened) await s.close();
          await dropSchema(schema);
        },
      };
    },
  },
];

function catalogOf(...flows: FlowSpec<State, State>[]): FlowCatalog {
  const catalog = new FlowCatalog();
  for (const f of flows) catalog.register(f);
  return catalog;
}

for (const backend of backends) {
  describe(`operator actions: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('a deploy without a version unfinished runs use is refused naming them, or fails them on request', async () => {
      const { store, cleanup } = await backend.open();
      const first = new Supervisor({ store, catalog: catalogOf(v1) });
      try {
        await first.start();
        const session = first.forSession(randomUUID());
        const run = await createPendingRun(store, {
          sessionId: session.sessionId,
          name: 'approval_flow',
          version: 'v1',
          input: { n: 0 },
        });
        await session.start(run.run_id);
        await waitForStatus(store, run.run_id, 'interrupted');
        await first.stop();

        const dropped = new Supervisor({ store, catalog: catalogOf(fragile) });
        await assert.rejects(dropped.start(), (error: unknown) => {
          assert.ok(isRimthanError(error) && error.code === 'definition_in_use');
          assert.match(error.message, /approval_flow@v1 \(1 unfinished run: /);
          assert.ok(error.message.includes(run.run_id), 'the refusal names the run');
          return true;
        });
        assert.equal(dropped.running, false);
        assert.equal((await store.getRunById(run.run_id))?.status, 'interrupted', 'a refusal changes nothing');

        const failing = new Supervisor({ store, catalog: catalogOf(fragile), removedVersions: 'fail' });
        await failing.start();
        await failing.stop();
        assert.deepEqual(failing.deployment.failed, [run.run_id]);
        const failed = await store.getRunById(run.run_id);
        assert.equal(failed?.status, 'failed');
        assert.match(failed?.status_summary ?? '', /approval_flow@v1 was removed from the deployment/);
        const kinds = (await fullHistory(store, run.run_id)).map((e) => e.kind);
        assert.deepEqual(kinds.slice(-1), ['run_failed']);
      } finally {
        await first.stop();
        await cleanup();
      }
    });

    test('an interrupted run is upgraded to a version that declares it, checked against its state schema', async () => {
      const { store, cleanup } = await backend.open();
      const old = new Supervisor({ store, catalog: catalogOf(v1) });
      try {
        await old.start();
        const session = old.forSession(randomUUID());
        const run = await createPendingRun(store, {
          sessionId: session.sessionId,
          name: 'approval_flow',
          version: 'v1',
          input: { n: 0 },
        });
        await session.start(run.run_id);
        const paused = await waitForStatus(store, run.run_id, 'interrupted');
        await old.stop();

        const request = { runId: run.run_id, sessionId: session.sessionId, toVersion: 'v2' };
        const code = (c: string) => (error: unknown) => isRimthanError(error) && error.code === c;
        // The state carried over must match v2's schema: without the declared transform it lacks `note`.
        await assert.rejects(
          upgradeRun(store, catalogOf(v1, v2(true, false)), systemClock, request),
          code('invalid_input'),
        );
        await assert.rejects(upgradeRun(store, catalogOf(v1), systemClock, request), code('unknown_definition'));
        await assert.rejects(
          upgradeRun(store, catalogOf(v1, v2(true, true)), systemClock, { ...request, sessionId: randomUUID() }),
          code('not_found'),
        );
        assert.deepEqual(await store.getRunById(run.run_id), paused, 'a refused upgrade writes nothing');

        const catalog = catalogOf(v1, v2(true, true));
        const upgraded = await upgradeRun(store, catalog, systemClock, request);
        assert.equal(upgraded.definition_version, 'v2');
        assert.equal(upgraded.status, 'interrupted');
        assert.equal(upgraded.interrupt?.vertex, 'review');
        assert.equal(upgraded.checkpoint_revision, paused.checkpoint_revision + 1);
        const cp = await store.latestCheckpoint(run.run_id);
        assert.deepEqual(cp?.state['flow_state'], { n: 1, note: 'from v1' });
        assert.equal(cp?.state['next_vertex'], 'review');
        const last = (await fullHistory(store, run.run_id)).at(-1);
        assert.equal(last?.kind, 'run_interrupted');
        assert.match(last?.message ?? '', /upgraded from approval_flow@v1 to version v2 \(vertex ask → review\)/);
        await assert.rejects(upgradeRun(store, catalog, systemClock, request), code('conflict'));

        // It now resumes under v2's resume schema and finishes on v2's vertices.
        const fresh = new Supervisor({ store, catalog });
        await fresh.start();
        try {
          const ctl = fresh.forSession(session.sessionId);
          await assert.rejects(ctl.resume(run.run_id, { ok: true }), code('invalid_input'));
          await ctl.resume(run.run_id, { approved: true });
          await waitForStatus(store, run.run_id, 'completed');
          assert.deepEqual((await store.latestCheckpoint(run.run_id))?.state['flow_state'], {
            n: 101,
            note: 'from v1',
          });
        } finally {
          await fresh.stop();
        }
      } finally {
        await old.stop();
        await cleanup();
      }
    });

    test('a failed run restarts from a completed vertex as a new revision, history kept', async () => {
      const { store, cleanup } = await backend.open();
      edgeBroken = true;
      bRuns = 0;
      const catalog = catalogOf(fragile);
      const worker = new Supervisor({ store, catalog, leaseMs: 500 });
      try {
        await worker.start();
        const session = worker.forSession(randomUUID());
        const run = await createPendingRun(store, {
          sessionId: session.sessionId,
          name: 'fragile_flow',
          version: 'v1',
          input: { n: 0 },
        });
        await session.start(run.run_id);
        const failed = await waitForStatus(store, run.run_id, 'failed');
        const before = await fullHistory(store, run.run_id);
        assert.equal(bRuns, 1);
        const code = (c: string) => (error: unknown) => isRimthanError(error) && error.code === c;
        await assert.rejects(
          restartRun(store, catalog, systemClock, { runId: run.run_id, fromVertex: 'c' }),
          code('conflict'),
        );
        await assert.rejects(
          restartRun(store, catalog, systemClock, { runId: run.run_id, fromVertex: 'zz' }),
          code('invalid_arguments'),
        );

        edgeBroken = false;
        const restarted = await restartRun(store, catalog, systemClock, { runId: run.run_id, fromVertex: 'b' });
        assert.equal(restarted.status, 'running');
        assert.equal(restarted.checkpoint_revision, failed.checkpoint_revision + 1);
        const done = await waitForStatus(store, run.run_id, 'completed');
        assert.equal(bRuns, 2, 'the chosen vertex ran again');
        assert.deepEqual(
          (await store.latestCheckpoint(run.run_id))?.state['flow_state'],
          { n: 3 },
          'from the state b started from',
        );
        const after = await fullHistory(store, run.run_id);
        assert.deepEqual(after.slice(0, before.length), before, 'history before the restart is unchanged');
        const added = after.slice(before.length);
        assert.equal(added[0]?.kind, 'run_resumed');
        assert.match(added[0]?.message ?? '', /restarted from b by an operator/);
        assert.deepEqual(
          added.slice(1).map((e) => [e.kind, e.vertex_id]),
          [
            ['vertex_completed', 'b'],
            ['vertex_completed', 'c'],
            ['run_completed', undefined],
          ],
        );
        const revisions = after.map((e) => e.revision);
        assert.deepEqual(
          [...new Set(revisions)],
          Array.from({ length: done.checkpoint_revision + 1 }, (_, i) => i),
        );
        await assert.rejects(
          restartRun(store, catalog, systemClock, { runId: run.run_id, fromVertex: 'b' }),
          code('conflict'),
        );
      } finally {
        await worker.stop();
        await cleanup();
      }
    });
  });
}
