/**
 * runGraphOf, the pure function behind `GET /api/runs/:id/graph`, on runs in states the end-to-end tests do not hold
 * still: a parallel frontier with one branch committed, a vertex interrupted after its retries, a run awaiting input,
 * a cancelled run, a parked timer; durations from the completion that led to each vertex; and the perimeter: a marker
 * in the flow state, a fan-out item, a failure message and a resume payload never reaches the answer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runGraphOf } from '../../../src/console/runs/run-graph.js';
import type { RunGraphInput } from '../../../src/console/runs/run-graph.js';
import { FlowCatalog, flowShape } from '../../../src/runs/index.js';
import type { ActivityEntry, FlowCheckpoint, RunRecord } from '../../../src/runs/index.js';
import { graphDemoFlow, graphShapesFlow } from '../graph-flows.js';
import { MARKER } from '../fixtures.js';

const catalog = new FlowCatalog();
const demo = flowShape(catalog.register(graphDemoFlow));
const shapes = flowShape(catalog.register(graphShapesFlow));
const T0 = Date.parse('2026-12-06T10:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();

function record(status: RunRecord['status'], changes: Partial<RunRecord> = {}): RunRecord {
  return {
    session_id: 's',
    run_id: 'run-1',
    definition_name: 'graph_demo',
    definition_version: 'v1',
    parent_run_id: null,
    input_sha256: '0'.repeat(64),
    idempotency_key: null,
    status,
    status_summary: '',
    cancel_requested: false,
    checkpoint_revision: 3,
    activity_cursor: 3,
    artifacts: [],
    artifact_namespace: { session_id: 's', run_id: 'run-1', input_kind: '', input_session_id: '', input_run_id: '' },
    interrupt: null,
    created_seq: 1,
    created_at: at(0),
    updated_at: at(0),
    record_revision: 3,
    ...changes,
  };
}

let revision = 0;
function entry(kind: ActivityEntry['kind'], ms: number, vertex?: string, message?: string): ActivityEntry {
  revision += 1;
  return {
    run_id: 'run-1',
    revision,
    event_id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    ordinal: 0,
    kind,
    run_status: 'running',
    occurred_at: at(ms),
    ...(vertex === undefined ? {} : { vertex_id: vertex, vertex_label: vertex }),
    ...(message === undefined ? {} : { message }),
  };
}

function checkpoint(changes: Partial<FlowCheckpoint>): FlowCheckpoint {
  return {
    format: 1,
    status: 'running',
    flow_state: { topic: MARKER },
    next_vertex: null,
    completed_vertices: [],
    steps: 0,
    attempt: 0,
    resume: { note: MARKER },
    ...changes,
  };
}

function input(changes: Partial<RunGraphInput>): RunGraphInput {
  return {
    shape: demo,
    record: record('running'),
    history: [],
    truncated: false,
    checkpoint: undefined,
    children: [],
    now: new Date(T0 + 60_000),
    ...changes,
  };
}

const states = (g: ReturnType<typeof runGraphOf>) => Object.fromEntries(g.vertices.map((v) => [v.id, v.state]));

describe('runGraphOf', () => {
  test('a parallel frontier with one branch committed: the other runs, durations from the step that led there', () => {
    const g = runGraphOf(
      input({
        history: [
          entry('run_started', 0),
          entry('vertex_completed', 1000, 'plan'),
          entry('vertex_completed', 1500, 'left'),
        ],
        checkpoint: checkpoint({
          next_vertex: 'right',
          frontier: {
            slots: [{ vertex: 'left' }, { vertex: 'right' }],
            done: [{ update: { left: 1 }, attempt: 5 }, null],
          },
        }),
      }),
    );
    assert.deepEqual(states(g), {
      plan: 'done',
      left: 'done',
      right: 'running',
      gather: 'waiting',
      delegate: 'waiting',
      finish: 'waiting',
    });
    const v = (id: string) => g.vertices.find((x) => x.id === id);
    assert.equal(v('plan')?.duration_ms, 1000);
    assert.equal(v('left')?.duration_ms, 500);
    assert.equal(v('right')?.started_at, at(1000), 'the branch started when plan completed');
    assert.deepEqual(v('right')?.branches, { total: 1, done: 0 });
    assert.deepEqual(v('left')?.branches, { total: 1, done: 1 });
  });

  test('a forEach frontier counts its instances, and a parked timer shows its wake-up time', () => {
    const g = runGraphOf(
      input({
        shape: shapes,
        record: record('running', { definition_name: 'graph_shapes' }),
        checkpoint: checkpoint({
          next_vertex: 'each',
          frontier: {
            slots: [
              { vertex: 'each', item: MARKER, index: 0 },
              { vertex: 'each', item: MARKER, index: 1 },
              { vertex: 'each', item: MARKER, index: 2 },
            ],
            done: [{ update: { total: 1 }, attempt: 7 }, null, null],
          },
        }),
      }),
    );
    assert.deepEqual(
      g.vertices.find((v) => v.id === 'each')?.branches,
      { total: 3, done: 1 },
      'instances, never their items',
    );
    assert.ok(!JSON.stringify(g).includes(MARKER));

    const parked = runGraphOf(
      input({
        checkpoint: checkpoint({
          next_vertex: 'plan',
          waits: {
            vertex: 'plan',
            waits: [
              { kind: 'sleep', until: T0 + 30_000 },
              { kind: 'sleep', until: T0 + 90_000 },
              { kind: 'event', name: 'go', position: 0, until: T0 + 120_000 },
              { kind: 'child', run_id: 'child-1' },
            ],
          },
        }),
      }),
    );
    assert.deepEqual(parked.awaits, {
      vertex: 'plan',
      timers: [
        { until: at(30_000), passed: true },
        { until: at(90_000), passed: false },
      ],
      events: [{ name: 'go', until: at(120_000) }],
      children: ['child-1'],
    });
    assert.deepEqual(parked.vertices.find((v) => v.id === 'plan')?.child_runs, ['child-1']);
  });

  test('interrupted after its retries: failed with the tries spent; awaiting input: waiting', () => {
    const failed = runGraphOf(
      input({
        shape: shapes,
        record: record('interrupted', {
          definition_name: 'graph_shapes',
          interrupt: { reason: 'task_failed', vertex: 'fetch', message: MARKER },
        }),
        checkpoint: checkpoint({ status: 'interrupted', next_vertex: 'fetch' }),
      }),
    );
    const fetch = failed.vertices.find((v) => v.id === 'fetch');
    assert.equal(fetch?.state, 'failed');
    assert.equal(fetch?.attempts, 2);
    assert.equal(failed.vertices.find((v) => v.id === 'publish')?.state, 'waiting');

    const asking = runGraphOf(
      input({
        record: record('interrupted', { interrupt: { reason: 'awaiting_input', vertex: 'plan' } }),
        checkpoint: checkpoint({ status: 'interrupted', next_vertex: 'plan' }),
      }),
    );
    assert.equal(asking.vertices.find((v) => v.id === 'plan')?.state, 'waiting');
    assert.equal(asking.vertices.find((v) => v.id === 'plan')?.attempts, undefined);
  });

  test('a cancelled run: what ran is done, the rest skipped; a routed failure is failed and routed', () => {
    const g = runGraphOf(
      input({
        shape: shapes,
        record: record('cancelled', { definition_name: 'graph_shapes' }),
        history: [
          entry('run_started', 0),
          entry('vertex_completed', 10, 'split'),
          entry('vertex_completed', 20, 'count'),
          entry('vertex_completed', 30, 'tally'),
          entry('vertex_completed', 40, 'merge'),
          entry('vertex_completed', 50, 'fetch', 'failed (upstream_down); handled by Fall back'),
          entry('run_cancelled', 60),
        ],
        checkpoint: checkpoint({
          status: 'cancelled',
          next_vertex: 'fallback',
          failure: { vertex: 'fetch', code: 'x', message: MARKER },
        }),
      }),
    );
    assert.deepEqual(states(g), {
      split: 'done',
      count: 'done',
      tally: 'done',
      merge: 'done',
      fetch: 'failed',
      fallback: 'skipped',
      each: 'skipped',
      publish: 'skipped',
    });
    assert.equal(g.vertices.find((v) => v.id === 'fetch')?.routed, true);
    assert.equal(g.vertices.find((v) => v.id === 'fetch')?.duration_ms, 10, 'from merge, through the decision');
    assert.equal(g.awaits, undefined);
    assert.ok(!JSON.stringify(g).includes(MARKER), 'no state, failure message or resume payload');
  });
});
