/**
 * `GET /api/runs/:id/graph`: a run's flow graph with each vertex's state, read by `rimthan console` from the store a
 * `rimthan serve --profile runs` worker executes (both with the same `--flows` module). graph_demo is held at each
 * step by an event the test sends, so the answer is checked at every stage: parked awaiting an event, parallel
 * branches done and joined, parked awaiting its child run (listed, with its own graph), completed. graph_shapes runs
 * to its end on its own: a failure routed to its handler, a `forEach` vertex, a branch never taken. No answer ever
 * holds the run's input, and a run of another session is not_found.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RUN_STORE, openStore } from '../../../src/cli/run-store.js';
import { systemClock } from '../../../src/core/index.js';
import { sendEvent } from '../../../src/runs/index.js';
import type { RunGraphAnswer, RunGraphVertexView } from '../../../src/console/index.js';
import { MARKER } from '../fixtures.js';
import { startConsoleCli } from '../support.js';
import type { RunningConsole } from '../support.js';

const FLOWS = fileURLToPath(new URL('../graph-flows.js', import.meta.url));
const TOKEN = 'console-run-graph-token-aaaaaaaaaaaa';
const OTHER_TOKEN = 'console-run-graph-token-bbbbbbbbbbbb';

describe('the run graph API', () => {
  let running: RunningConsole;
  let secrets: string;
  let session: string;
  const answers: string[] = [];

  async function api(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const answer = await fetch(new URL(path, running.origin), {
      method: init.method ?? 'GET',
      headers: {
        Authorization: `Bearer ${init.token ?? TOKEN}`,
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await answer.text();
    answers.push(text);
    return { status: answer.status, json: JSON.parse(text) as Record<string, unknown> };
  }

  async function graphOf(runId: string): Promise<RunGraphAnswer> {
    const { status, json } = await api(`/api/runs/${runId}/graph`);
    assert.equal(status, 200, JSON.stringify(json));
    return json as unknown as RunGraphAnswer;
  }

  /** Reads the graph until `ready` holds (generous cap; no timing assumption). */
  async function graphUntil(runId: string, ready: (g: RunGraphAnswer) => boolean, what: string) {
    let graph = await graphOf(runId);
    for (let i = 0; i < 1200 && !ready(graph); i++) {
      await new Promise((r) => setTimeout(r, 50));
      graph = await graphOf(runId);
    }
    assert.ok(ready(graph), `${what}: ${JSON.stringify(graph)}`);
    return graph;
  }

  async function send(runId: string, name: string): Promise<void> {
    const store = await openStore(DEFAULT_RUN_STORE, running.cwd, { create: false });
    try {
      await sendEvent(store, systemClock, {
        runId,
        sessionId: session,
        name,
        eventId: `${name}-${runId}`,
        payload: {},
      });
    } finally {
      await store.close();
    }
  }

  const states = (g: RunGraphAnswer): Record<string, string> =>
    Object.fromEntries(g.vertices.map((v) => [v.id, v.state]));
  const vertex = (g: RunGraphAnswer, id: string): RunGraphVertexView => {
    const v = g.vertices.find((x) => x.id === id);
    assert.ok(v !== undefined, `vertex ${id}`);
    return v;
  };

  before(async () => {
    secrets = mkdtempSync(join(tmpdir(), 'rimthan-run-graph-'));
    writeFileSync(join(secrets, 'tokens'), `${TOKEN}\n${OTHER_TOKEN}\n`);
    running = await startConsoleCli(['--admin-token-file', join(secrets, 'tokens'), '--flows', FLOWS], {}, undefined, {
      workerArgs: ['--flows', FLOWS],
    });
    session = (await api('/api/me')).json['session'] as string;
  });

  after(async () => {
    assert.equal(await running.stop(), 0);
    rmSync(secrets, { recursive: true, force: true });
    for (const text of [...answers, running.stderr.join('\n')]) assert.ok(!text.includes(MARKER), 'the input leaked');
  });

  test('follows graph_demo through its event, its parallel branches, its child run and its end', async () => {
    const started = await api('/api/runs', {
      method: 'POST',
      body: { definition_name: 'graph_demo', definition_version: 'v1', input: { topic: MARKER } },
    });
    assert.equal(started.status, 200, JSON.stringify(started.json));
    const runId = started.json['run_id'] as string;

    // Parked at plan, awaiting event `go`.
    let g = await graphUntil(runId, (x) => x.awaits?.events[0]?.name === 'go', 'parked awaiting go');
    assert.deepEqual(states(g), {
      plan: 'running',
      left: 'waiting',
      right: 'waiting',
      gather: 'waiting',
      delegate: 'waiting',
      finish: 'waiting',
    });
    assert.equal(g.awaits?.vertex, 'plan');
    assert.equal(g.awaits?.events[0]?.until, null);
    assert.ok(vertex(g, 'plan').started_at !== undefined);
    assert.equal(vertex(g, 'plan').fan_out, true);
    assert.equal(vertex(g, 'gather').join, true);
    assert.deepEqual(
      g.edges.filter((e) => e.from === 'plan'),
      [
        { from: 'plan', to: 'left', kind: 'static' },
        { from: 'plan', to: 'right', kind: 'static' },
      ],
    );
    assert.deepEqual(g.children, []);

    // Released: the branches run and join, then delegate parks awaiting its child.
    await send(runId, 'go');
    g = await graphUntil(runId, (x) => (x.awaits?.children.length ?? 0) === 1, 'parked awaiting the child');
    assert.deepEqual(states(g), {
      plan: 'done',
      left: 'done',
      right: 'done',
      gather: 'done',
      delegate: 'running',
      finish: 'waiting',
    });
    for (const id of ['plan', 'left', 'right', 'gather']) {
      assert.equal(vertex(g, id).completions, 1);
      assert.equal(typeof vertex(g, id).duration_ms, 'number', `${id} has a duration`);
    }
    const childId = g.awaits?.children[0] ?? '';
    assert.deepEqual(vertex(g, 'delegate').child_runs, [childId]);
    assert.equal(g.children.length, 1);
    assert.equal(g.children[0]?.run_id, childId);
    assert.equal(g.children[0]?.definition_name, 'graph_child');

    // The child's own graph: parked awaiting `release`.
    const child = await graphUntil(childId, (x) => x.awaits?.events[0]?.name === 'release', 'the child parks');
    assert.deepEqual(states(child), { hold: 'running' });

    await send(childId, 'release');
    g = await graphUntil(runId, (x) => x.run_status === 'completed', 'the parent completes');
    assert.deepEqual(new Set(Object.values(states(g))), new Set(['done']));
    assert.equal(g.awaits, undefined);
    assert.deepEqual(vertex(g, 'delegate').child_runs, [childId], 'the finished vertex still names its child');
    assert.equal(g.children[0]?.run_status, 'completed');
  });

  test('graph_shapes: a routed failure, a forEach vertex and a branch never taken', async () => {
    const started = await api('/api/runs', {
      method: 'POST',
      body: { definition_name: 'graph_shapes', definition_version: 'v1', input: { topic: MARKER } },
    });
    const runId = started.json['run_id'] as string;
    const g = await graphUntil(runId, (x) => x.run_status === 'completed', 'graph_shapes completes');
    assert.deepEqual(states(g), {
      split: 'done',
      count: 'done',
      tally: 'done',
      merge: 'done',
      fetch: 'failed',
      fallback: 'done',
      each: 'done',
      publish: 'skipped',
    });
    assert.equal(vertex(g, 'fetch').routed, true);
    assert.equal(vertex(g, 'fetch').on_error, 'fallback');
    assert.deepEqual(vertex(g, 'fetch').retry, { attempts: 2, backoff_ms: 1 });
    assert.equal(vertex(g, 'each').for_each_max_items, 8);
    assert.equal(vertex(g, 'merge').decision, true);
    assert.deepEqual(
      g.edges.filter((e) => e.kind !== 'static'),
      [
        { from: 'merge', to: null, kind: 'conditional' },
        { from: 'fetch', to: 'fallback', kind: 'error' },
      ],
    );
  });

  test('a run of another session, or no run, is not_found', async () => {
    const mine = await api('/api/runs', {
      method: 'POST',
      body: { definition_name: 'graph_shapes', definition_version: 'v1', input: { topic: 'x' } },
    });
    const other = await api(`/api/runs/${mine.json['run_id'] as string}/graph`, { token: OTHER_TOKEN });
    assert.equal(other.status, 404);
    assert.equal((other.json['error'] as { code: string }).code, 'not_found');
    const none = await api('/api/runs/00000000-0000-4000-8000-000000000000/graph');
    assert.equal(none.status, 404);
    const bad = await api(`/api/runs/${mine.json['run_id'] as string}/graph?x=1`);
    assert.equal(bad.status, 400);
  });
});
