import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { vertexIdempotencyKey } from '../../../src/runs/executor/idempotency-key.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { closedSchema, engineFixture, fullHistory, waitForStatus } from '../helpers.js';

type N = { n: number };
const N_SCHEMA = closedSchema({ n: { type: 'integer' } });
const RESUME = closedSchema({ retry: { type: 'boolean' } });

interface Try {
  attempt: number;
  key: string;
  run: string;
}

describe('vertex retries, failures and timeouts', () => {
  test('a failing vertex is retried with backoff and then succeeds; every try has its own idempotency key', async () => {
    const tries: Try[] = [];
    const flaky = defineFlow<N>({
      name: 'flaky_flow',
      version: 'v1',
      description: 'fails twice, then works',
      inputSchema: N_SCHEMA,
      graph: {
        start: 'flaky',
        vertices: {
          flaky: {
            retry: { attempts: 3, backoffMs: 1, factor: 2 },
            run: ({ attempt, idempotencyKey, runId, state }) => {
              tries.push({ attempt, key: idempotencyKey, run: runId });
              if (attempt < 3) throw new Error('transient');
              return { n: state.n + 1 };
            },
          },
        },
      },
    });
    const f = await engineFixture((c) => c.register(flaky));
    try {
      const a = await f.started('flaky_flow', { n: 1 });
      const done = await waitForStatus(f.store, a.run_id, 'completed');
      assert.deepEqual(
        tries.map((t) => t.attempt),
        [1, 2, 3],
      );
      assert.equal(new Set(tries.map((t) => t.key)).size, 3, 'keys differ per attempt');
      const cp = await f.store.latestCheckpoint(a.run_id);
      assert.deepEqual(cp?.state['flow_state'], { n: 2 });
      // The checkpoint names the durable attempt id of the successful try: its key is reproducible from it.
      const attemptId = cp?.state['attempt'];
      assert.equal(typeof attemptId, 'number');
      assert.equal(tries[2]?.key, vertexIdempotencyKey(a.run_id, 'flaky', attemptId as number));
      assert.equal(done.interrupt, null);

      // Another run of the same flow gets different keys for the same vertex and try number.
      const b = await f.started('flaky_flow', { n: 1 });
      await waitForStatus(f.store, b.run_id, 'completed');
      const keysA = new Set(tries.filter((t) => t.run === a.run_id).map((t) => t.key));
      for (const t of tries.filter((t) => t.run === b.run_id)) assert.equal(keysA.has(t.key), false);
    } finally {
      await f.close();
    }
  });

  test('a vertex failing after its retries pauses the run as interrupted (task_failed), and resume retries it', async () => {
    let healthy = false;
    const keys: string[] = [];
    const broken = defineFlow<N>({
      name: 'broken_flow',
      version: 'v1',
      description: 'fails until healed',
      inputSchema: N_SCHEMA,
      resumeSchema: RESUME,
      graph: {
        start: 'prepare',
        vertices: {
          prepare: { run: ({ state }) => ({ n: state.n + 1 }), next: 'call' },
          call: {
            label: 'Call the service',
            retry: { attempts: 2, backoffMs: 1 },
            run: ({ idempotencyKey, state }) => {
              keys.push(idempotencyKey);
              if (!healthy) throw new Error('secret-participant-value-42');
              return { n: state.n * 100 };
            },
          },
        },
      },
    });
    const f = await engineFixture((c) => c.register(broken));
    try {
      const ack = await f.started('broken_flow', { n: 1 });
      const paused = await waitForStatus(f.store, ack.run_id, 'interrupted', 'completed', 'failed');
      assert.equal(paused.status, 'interrupted');
      assert.deepEqual(paused.interrupt, {
        reason: 'task_failed',
        vertex: 'call',
        message: 'failed after 2 attempts: threw Error',
      });
      const history = await fullHistory(f.store, ack.run_id);
      assert.deepEqual(
        history.map((e) => e.kind),
        ['run_started', 'vertex_completed', 'run_interrupted'],
      );
      const interrupted = history.at(-1);
      assert.equal(interrupted?.vertex_id, 'call');
      assert.equal(interrupted?.vertex_label, 'Call the service');
      const visible = JSON.stringify({ paused, history });
      assert.equal(visible.includes('secret-participant-value'), false, 'the exception message never leaks');
      assert.equal(keys.length, 2);

      healthy = true;
      const resumed = await f.session.resume(ack.run_id, { retry: true });
      assert.equal(resumed.status, 'running');
      assert.equal(resumed.interrupt, null);
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.deepEqual((await f.store.latestCheckpoint(ack.run_id))?.state['flow_state'], { n: 200 });
      assert.equal(new Set(keys).size, 3, 'the try after resume has a new key');
      assert.deepEqual(f.checkpointRevisions(ack.run_id), [0, 1, 2, 3, 4]);
    } finally {
      await f.close();
    }
  });

  test('a per-vertex timeout aborts the try signal and counts as a failed try', async () => {
    const signals: AbortSignal[] = [];
    const slow = defineFlow<N>({
      name: 'slow_flow',
      version: 'v1',
      description: 'first try hangs',
      inputSchema: N_SCHEMA,
      graph: {
        start: 'slow',
        vertices: {
          slow: {
            timeoutMs: 20,
            retry: { attempts: 2, backoffMs: 1 },
            run: async ({ attempt, signal }) => {
              signals.push(signal);
              if (attempt === 1) await new Promise(() => undefined); // never settles: only the timeout ends this try
              return { n: 7 };
            },
          },
        },
      },
    });
    const f = await engineFixture((c) => c.register(slow));
    try {
      const ack = await f.started('slow_flow', { n: 0 });
      await waitForStatus(f.store, ack.run_id, 'completed');
      assert.equal(signals.length, 2);
      assert.equal(signals[0]?.aborted, true);
      assert.equal(signals[1]?.aborted, false);
      assert.deepEqual((await f.store.latestCheckpoint(ack.run_id))?.state['flow_state'], { n: 7 });
    } finally {
      await f.close();
    }
  });

  test('a state update that is not plain JSON fails the try instead of reaching a checkpoint', async () => {
    const bad = defineFlow<N>({
      name: 'bad_update_flow',
      version: 'v1',
      description: 'returns a non-JSON value',
      inputSchema: N_SCHEMA,
      graph: {
        start: 'bad',
        vertices: { bad: { run: () => ({ n: Number.NaN }) } },
      },
    });
    const f = await engineFixture((c) => c.register(bad));
    try {
      const ack = await f.started('bad_update_flow', { n: 0 });
      const paused = await waitForStatus(f.store, ack.run_id, 'interrupted', 'completed');
      assert.equal(paused.interrupt?.reason, 'task_failed');
      assert.deepEqual((await f.store.latestCheckpoint(ack.run_id))?.state['flow_state'], { n: 0 });
    } finally {
      await f.close();
    }
  });
  test('a conditional edge that names no vertex fails the run (run_failed) after recording the vertex', async () => {
    const lost = defineFlow<N>({
      name: 'lost_edge_flow',
      version: 'v1',
      description: 'routes to a vertex that does not exist',
      inputSchema: N_SCHEMA,
      graph: {
        start: 'route',
        vertices: { route: { run: ({ state }) => ({ n: state.n + 1 }) }, unused: { run: () => undefined } },
        edges: [{ from: 'route', to: (state) => (state.n > 0 ? 'nowhere' : 'unused') }],
      },
    });
    const f = await engineFixture((c) => c.register(lost));
    try {
      const ack = await f.started('lost_edge_flow', { n: 0 });
      const failed = await waitForStatus(f.store, ack.run_id, 'failed', 'completed');
      assert.equal(failed.status, 'failed');
      assert.deepEqual(
        (await fullHistory(f.store, ack.run_id)).map((e) => [e.kind, e.run_status]),
        [
          ['run_started', 'running'],
          ['vertex_completed', 'failed'],
          ['run_failed', 'failed'],
        ],
      );
      assert.deepEqual(f.checkpointRevisions(ack.run_id), [0, 1]);
    } finally {
      await f.close();
    }
  });
});
