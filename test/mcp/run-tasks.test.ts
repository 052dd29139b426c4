/** The Tasks extension of the runs profile: tasks/get, tasks/cancel over a session's runs; isolation by session. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { RequestStateCodec, systemClock } from '../../src/core/index.js';
import { createRunsProfileFactory, TASKS_EXTENSION_ID } from '../../src/mcp/index.js';
import type { RunsProfileFactory } from '../../src/mcp/index.js';
import { SqliteRunStore, Supervisor } from '../../src/runs/index.js';
import { createRunTools } from '../../src/tools/index.js';
import { testCatalog } from '../runs/fixtures/test-flows.js';
import { callTool, connect, testSigner } from './support/connect.js';

const TaskResult = z.object({ taskId: z.string(), status: z.string() }).passthrough();

describe('runs profile: Tasks extension', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-mcp-tasks-'));
  const store = new SqliteRunStore(join(dir, 'runs.db'));
  const catalog = testCatalog();
  let supervisor: Supervisor;
  let factory: RunsProfileFactory;

  before(async () => {
    await store.open();
    supervisor = new Supervisor({ store, catalog });
    await supervisor.start();
    factory = createRunsProfileFactory({
      toolsFor: (sessionId) =>
        createRunTools({ sessionId, catalog, store, supervisor: supervisor.forSession(sessionId) }),
      elicitation: { catalog, codec: new RequestStateCodec(testSigner(), systemClock) },
      tasks: true,
    });
  });
  after(async () => {
    await supervisor.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('advertises the extension, keeps the seven tools, and reports a run as a task only to its own session', async () => {
    const a = await connect(factory.forSession('session-a'));
    const b = await connect(factory.forSession('session-b'));
    try {
      const caps = a.client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
      assert.ok(caps?.extensions?.[TASKS_EXTENSION_ID] !== undefined);
      assert.equal((await a.client.listTools()).tools.length, 7);
      const started = await callTool(a.client, 'workflow_run_start', {
        definition_name: 'counter_flow',
        definition_version: 'v1',
        input: { count: 1 },
      });
      assert.equal(started.isError, false);
      const runId = started.value['run_id'] as string;
      const task = await a.client.request({ method: 'tasks/get', params: { taskId: runId } }, TaskResult);
      assert.equal(task.taskId, runId);
      assert.ok(['working', 'completed'].includes(task.status), task.status);
      await assert.rejects(
        b.client.request({ method: 'tasks/get', params: { taskId: runId } }, TaskResult),
        /task not found/,
      );
      await assert.rejects(
        b.client.request({ method: 'tasks/cancel', params: { taskId: runId } }, z.object({}).passthrough()),
        /task not found/,
      );
      await assert.rejects(
        a.client.request({ method: 'tasks/get', params: { taskId: runId, extra: 1 } }, TaskResult),
        /invalid params|Invalid/i,
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  /** Polls tasks/get (bounded count, no timing threshold) until the task leaves `working`. */
  async function settled(client: Awaited<ReturnType<typeof connect>>['client'], taskId: string) {
    for (let i = 0; i < 500; i++) {
      const task = await client.request({ method: 'tasks/get', params: { taskId } }, TaskResult);
      if (task.status !== 'working') return task;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error('task never left working');
  }

  test('a run waiting for a person is an input_required task asking its resume form; completed once resumed', async () => {
    const a = await connect(factory.forSession('session-a'));
    try {
      const started = await callTool(a.client, 'workflow_run_start', {
        definition_name: 'approval_flow',
        definition_version: 'v1',
        input: { version: '1.2.3', changes: ['a change'] },
      });
      assert.equal(started.isError, false, JSON.stringify(started.value));
      const taskId = started.value['run_id'] as string;
      const waiting = await settled(a.client, taskId);
      assert.equal(waiting.status, 'input_required');
      const ask = (waiting['inputRequests'] as Record<string, { method: string; params: Record<string, unknown> }>)[
        'resume'
      ];
      assert.equal(ask?.method, 'elicitation/create');
      assert.equal((ask?.params['requestedSchema'] as { type: string }).type, 'object');
      // The answer is resumed through the run handles (validated as workflow_run_resume validates a resume).
      const resumed = await callTool(a.client, 'workflow_run_resume', { run_id: taskId, resume: { approved: true } });
      assert.equal(resumed.isError, false, JSON.stringify(resumed.value));
      assert.equal((await settled(a.client, taskId)).status, 'completed');
    } finally {
      await a.close();
    }
  });

  test('tasks/cancel cancels as workflow_run_cancel does', async () => {
    const a = await connect(factory.forSession('session-a'));
    try {
      const started = await callTool(a.client, 'workflow_run_start', {
        definition_name: 'approval_flow',
        definition_version: 'v1',
        input: { version: '1.2.4', changes: ['another'] },
      });
      const taskId = started.value['run_id'] as string;
      assert.equal((await settled(a.client, taskId)).status, 'input_required');
      await a.client.request({ method: 'tasks/cancel', params: { taskId } }, z.object({}).passthrough());
      assert.equal((await settled(a.client, taskId)).status, 'cancelled');
      const run = await callTool(a.client, 'workflow_run_get', { run_id: taskId });
      assert.equal(run.value['run_status'], 'cancelled');
    } finally {
      await a.close();
    }
  });
});
