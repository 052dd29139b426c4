import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson, sha256Hex } from '../../src/core/index.js';
import type { NewRunRecord } from '../../src/runs/store/index.js';
import type { RunTool } from '../../src/tools/index.js';
import { assertNeverShown, openStack, SESSION_A, SESSION_B, spyController } from './harness.js';
import type { Stack } from './harness.js';

const MARKER = 'MARKER-7d41c9-never-shown';

describe('workflow_run_start', () => {
  let stack: Stack;
  let tools: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools();
  });
  after(() => stack.close());

  test('returns once the seed checkpoint is durable while the task is still blocked', async () => {
    const value = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'blocking_flow',
      definition_version: 'v1',
      input: { marker: MARKER },
    });
    const runId = value['run_id'] as string;
    assert.equal(value['run_status'], 'running');
    assert.equal(value['checkpoint_revision'], 0);
    assert.equal(value['idempotent'], false);
    assert.equal((await stack.store.latestCheckpoint(runId))?.revision, 0, 'seed is in the store');
    const history = await stack.ok(tools, 'workflow_run_history', { run_id: runId });
    assert.deepEqual(
      (history['entries'] as { kind: string }[]).map((e) => e.kind),
      ['run_started'],
      'nothing past the seed while the gate is closed',
    );
    stack.gate.open();
    await stack.waitFor(tools, runId, 'completed');
  });

  test('the safe result never carries the input, its digest or flow state', async () => {
    const value = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'ask_flow',
      definition_version: 'v1',
      input: { marker: MARKER },
    });
    const runId = value['run_id'] as string;
    const run = await stack.waitFor(tools, runId, 'interrupted');
    assert.deepEqual(run['interrupt'], {
      reason: 'awaiting_input',
      vertex: 'ask',
      vertex_label: 'ask',
      resume_supported: true,
    });
    const record = await stack.store.getRun(SESSION_A, runId);
    assert.ok(record);
    await stack.ok(tools, 'workflow_run_list', {});
    await stack.ok(tools, 'workflow_run_history', { run_id: runId });
    await stack.ok(tools, 'workflow_run_resume', { run_id: runId, resume: { answer: 1 } });
    await stack.waitFor(tools, runId, 'completed');
    for (const key of ['input', 'input_sha256', 'flow_state', 'state', 'idempotency_key', 'artifact_namespace']) {
      assert.equal(key in run, false, key);
    }
    assertNeverShown(stack, MARKER);
    assertNeverShown(stack, record.input_sha256);
  });

  test('stores the RFC 8785 canonical input: two spellings share one digest', async () => {
    const a = await stack.ok(
      tools,
      'workflow_run_start',
      '{"definition_name":"blocking_flow","definition_version":"v1","input":{"marker":"m","extra":{"b":1.0,"a":"\\u0041"}}}',
    );
    const b = await stack.ok(
      tools,
      'workflow_run_start',
      '{"input":{"extra":{"a":"A","b":1e0},"marker":"m"},"definition_version":"v1","definition_name":"blocking_flow"}',
    );
    const ra = await stack.store.getRun(SESSION_A, a['run_id'] as string);
    const rb = await stack.store.getRun(SESSION_A, b['run_id'] as string);
    const canonical = canonicalJson({ marker: 'm', extra: { a: 'A', b: 1 } });
    assert.equal(ra?.input_sha256, sha256Hex(canonical));
    assert.equal(rb?.input_sha256, ra?.input_sha256);
    assert.equal(await stack.store.getInput(sha256Hex(canonical)), canonical);
  });

  test('refuses an unknown definition name or version', async () => {
    const start = { definition_name: 'counter_flow', definition_version: 'v2', input: { count: 1 } };
    await stack.fails(tools, 'workflow_run_start', start, 'unknown_definition');
    await stack.fails(
      tools,
      'workflow_run_start',
      { ...start, definition_name: 'Counter_Flow', definition_version: 'v1' },
      'unknown_definition',
    );
  });

  test('refuses input that breaks the definition schema, naming only keyword and schema path', async () => {
    const message = await stack.fails(
      tools,
      'workflow_run_start',
      { definition_name: 'blocking_flow', definition_version: 'v1', input: { marker: MARKER, sneaky: MARKER } },
      'invalid_input',
    );
    assert.match(message, /additionalProperties at #\/additionalProperties/);
    await stack.fails(
      tools,
      'workflow_run_start',
      { definition_name: 'counter_flow', definition_version: 'v1', input: [] },
      'invalid_arguments',
    );
    assertNeverShown(stack, MARKER);
  });

  test('a parent run must exist in this session', async () => {
    const parent = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'counter_flow',
      definition_version: 'v1',
      input: { count: 1 },
    });
    const parentId = parent['run_id'] as string;
    const child = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'counter_flow',
      definition_version: 'v1',
      input: { count: 2 },
      parent_run_id: parentId.toUpperCase(),
    });
    assert.equal(child['parent_run_id'], parentId);
    const missing = await stack.fails(
      tools,
      'workflow_run_start',
      {
        definition_name: 'counter_flow',
        definition_version: 'v1',
        input: { count: 1 },
        parent_run_id: '0b7e1c9a-2d3f-4e5a-8b6c-7d8e9f0a1b2c',
      },
      'not_found',
    );
    const otherSession = await stack.fails(
      stack.tools(SESSION_B),
      'workflow_run_start',
      { definition_name: 'counter_flow', definition_version: 'v1', input: { count: 1 }, parent_run_id: parentId },
      'not_found',
    );
    assert.equal(otherSession, missing);
  });

  test('an idempotency key returns the same run for the same request and refuses a different one', async () => {
    const start = {
      definition_name: 'counter_flow',
      definition_version: 'v1',
      input: { count: 5 },
      idempotency_key: 'order-42',
    };
    const first = await stack.ok(tools, 'workflow_run_start', start);
    const again = await stack.ok(tools, 'workflow_run_start', { ...start, input: { count: 5.0 } });
    assert.equal(again['run_id'], first['run_id']);
    assert.equal(again['idempotent'], true);
    assert.equal(first['idempotent'], false);
    await stack.fails(tools, 'workflow_run_start', { ...start, input: { count: 6 } }, 'conflict');
    await stack.fails(
      tools,
      'workflow_run_start',
      { ...start, definition_name: 'blocking_flow', input: { marker: 'x' } },
      'conflict',
    );
    const keyed = (await stack.store.listRuns(SESSION_A, { limit: 100 })).filter(
      (r) => r.idempotency_key === 'order-42',
    );
    assert.equal(keyed.length, 1);
    const other = await stack.ok(stack.tools(SESSION_B), 'workflow_run_start', start);
    assert.notEqual(other['run_id'], first['run_id'], 'keys are per session');
  });

  test('a start the supervisor cannot seed is an error, never a success', async () => {
    const broken = stack.tools(SESSION_A, {
      supervisor: {
        ...spyController(stack, SESSION_A).controller,
        startNew: () => Promise.reject(new Error('disk on fire')),
      },
    });
    const message = await stack.fails(
      broken,
      'workflow_run_start',
      { definition_name: 'counter_flow', definition_version: 'v1', input: { count: 1 } },
      'unavailable',
    );
    assert.doesNotMatch(message, /disk on fire/);
  });
});

describe('PrepareRun hook', () => {
  let stack: Stack;
  before(async () => {
    stack = await openStack();
  });
  after(() => stack.close());

  const start = { definition_name: 'counter_flow', definition_version: 'v1', input: { count: 1 } };
  const changes: Record<string, (r: NewRunRecord) => NewRunRecord> = {
    session_id: (r) => ({ ...r, session_id: SESSION_B }),
    run_id: (r) => ({ ...r, run_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }),
    definition_name: (r) => ({ ...r, definition_name: 'approval_flow' }),
    definition_version: (r) => ({ ...r, definition_version: 'v2' }),
    parent_run_id: (r) => ({ ...r, parent_run_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }),
    input_sha256: (r) => ({ ...r, input_sha256: sha256Hex('other') }),
    idempotency_key: (r) => ({ ...r, idempotency_key: 'sneaky' }),
    status: (r) => ({ ...r, status: 'running' }),
    status_summary: (r) => ({ ...r, status_summary: 'hello' }),
    cancel_requested: (r) => ({ ...r, cancel_requested: true }),
    checkpoint_revision: (r) => ({ ...r, checkpoint_revision: 0 }),
    activity_cursor: (r) => ({ ...r, activity_cursor: 3 }),
    artifacts: (r) => ({ ...r, artifacts: [{ id: 'a', kind: 'k', digest: 'd', size: 1 }] }),
    interrupt: (r) => ({ ...r, interrupt: { reason: 'awaiting_input', vertex: 'x' } }),
    created_at: (r) => ({ ...r, created_at: '2000-01-01T00:00:00.000Z' }),
    updated_at: (r) => ({ ...r, updated_at: '2000-01-01T00:00:00.000Z' }),
    created_seq: (r) => ({ ...r, created_seq: 1 }) as NewRunRecord,
  };
  for (const [field, change] of Object.entries(changes)) {
    test(`refuses a change of the protected field ${field} and creates nothing`, async () => {
      const tools = stack.tools(SESSION_A, { prepareRun: change });
      const message = await stack.fails(tools, 'workflow_run_start', start, 'internal');
      assert.match(message, new RegExp(`"${field}"`));
      assert.deepEqual(await stack.store.listRuns(SESSION_A, { limit: 10 }), []);
      assert.deepEqual(await stack.store.listRuns(SESSION_B, { limit: 10 }), []);
    });
  }

  test('may bind the five artifact-namespace fields', async () => {
    const namespace = {
      session_id: 'artifact-session',
      run_id: 'artifact-run',
      input_kind: 'bootstrap',
      input_session_id: 'seed-session',
      input_run_id: 'seed-run',
    } as const;
    const tools = stack.tools(SESSION_A, {
      prepareRun: (r) => Promise.resolve({ ...r, artifact_namespace: namespace }),
    });
    const value = await stack.ok(tools, 'workflow_run_start', start);
    const record = await stack.store.getRun(SESSION_A, value['run_id'] as string);
    assert.deepEqual(record?.artifact_namespace, namespace);
    assert.equal('artifact_namespace' in value, false);
  });

  test('refuses a malformed namespace', async () => {
    const tools = stack.tools(SESSION_A, {
      prepareRun: (r) => ({ ...r, artifact_namespace: { ...r.artifact_namespace, input_kind: 'sideways' as never } }),
    });
    assert.match(await stack.fails(tools, 'workflow_run_start', start, 'internal'), /input_kind/);
  });
});
