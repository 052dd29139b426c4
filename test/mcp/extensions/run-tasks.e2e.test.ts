/**
 * Durable runs as tasks (the Tasks extension `io.modelcontextprotocol/tasks` over MCP 2026-07-28) against a real
 * `rimthan serve --profile runs`: the official requester (`@modelcontextprotocol/ext-tasks`) drives a run that waits
 * for a person's review to completed, answering the review form through `tasks/update`; on the wire, the refusals
 * (no declared extension, another principal's task, malformed params or answers, a stale input key), a declined form
 * cancelling the task, and cancellation answered exactly as `workflow_run_cancel` answers (a finished task refused);
 * a run whose resume no form can ask reported as `input_required` with what resumes it, so the requester reaches the
 * end once `workflow_run_resume` is called; the same lifecycle over stdio; and clients that did not declare the
 * extension get the seven plain tools, unchanged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import type { ApplicationInputRequest } from '@modelcontextprotocol/ext-tasks/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SchemaCompiler } from '../../../src/core/index.js';
import type { JsonObject } from '../../../src/core/index.js';
import { TASKS_EXTENSION_ID } from '../../../src/mcp/index.js';
import { TASK_TTL_MS } from '../../../src/mcp/extensions/tasks.js';
import { REVIEW_FLOWS_MODULE } from '../../support/review-flow.js';
import { eventually, spawnServe } from '../../support/serve-process.js';
import type { ServeProcess } from '../../support/serve-process.js';
import { MODERN_REVISION, modernCall } from '../support/modern-client.js';
import { modernPost, rawStdio } from '../support/modern-wire.js';

const TOKEN = 'run-tasks-token-0123456789abcdef0123';
const OTHER_TOKEN = 'run-tasks-other-0123456789abcdef012';
const TASKS = { extensions: { [TASKS_EXTENSION_ID]: {} } };
const START = {
  name: 'workflow_run_start',
  arguments: { definition_name: 'review_flow', definition_version: 'v1', input: { title: 'Quarterly note' } },
};
const NESTED_START = {
  name: 'workflow_run_start',
  arguments: { definition_name: 'nested_review_flow', definition_version: 'v1', input: { title: 'Annual note' } },
};

/** The review flow again, but its resume is a nested object (`{review: {approved, notes}}`): no form can ask it. */
const NESTED_REVIEW_FLOW = `
flows.push(defineFlow({
  name: 'nested_review_flow',
  version: 'v1',
  description: 'Drafts a note, waits for a structured review, then files it.',
  inputSchema: closed({ title: { type: 'string', maxLength: 64 } }, ['title']),
  resumeSchema: closed({
    review: closed({
      approved: { type: 'boolean' },
      notes: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 64 } },
    }, ['approved', 'notes']),
  }, ['review']),
  initialState: (input) => ({ title: input.title, approved: false }),
  graph: {
    start: 'review',
    vertices: {
      review: {
        label: 'Review',
        run: ({ resume, interrupt }) => (resume?.review?.approved === true ? { approved: true } : interrupt('review')),
      },
    },
  },
}));
`;

/** The JSON-RPC result of a response (asserting it is one). */
function resultOf(response: JsonObject): JsonObject {
  assert.ok(response['result'] !== undefined, JSON.stringify(response));
  return response['result'] as JsonObject;
}

/** The JSON-RPC error of a response (asserting it is one). */
function errorOf(response: JsonObject): { code: number; message: string; data?: JsonObject } {
  assert.ok(response['error'] !== undefined, JSON.stringify(response));
  return response['error'] as { code: number; message: string; data?: JsonObject };
}

async function v2Client(url: string, token: string, tasks: boolean): Promise<Client> {
  const client = new Client(
    { name: 'rimthan-tasks-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN_REVISION } }, ...(tasks ? { capabilities: TASKS } : {}) },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

describe('durable runs as tasks (MCP 2026-07-28 Tasks extension)', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-run-tasks-'));
  const flows = join(work, 'flows.mjs');
  writeFileSync(flows, REVIEW_FLOWS_MODULE + NESTED_REVIEW_FLOW);
  const tokens = join(work, 'tokens');
  writeFileSync(tokens, `${TOKEN}\n${OTHER_TOKEN}\n`);
  const env = { HOME: work, XDG_STATE_HOME: work };
  let server: ServeProcess;
  before(async () => {
    const store = `sqlite:${join(work, 'runs.db')}`;
    server = await spawnServe(
      [
        '--profile',
        'runs',
        '--transport',
        'http',
        '--port',
        '0',
        '--token-file',
        tokens,
        '--store',
        store,
        '--flows',
        flows,
      ],
      env,
    );
  });
  after(async () => {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Starts a review run as a task over the raw wire; its task id once it waits for the review. */
  async function waitingTask(token = TOKEN): Promise<{ taskId: string; key: string }> {
    const created = resultOf((await modernPost(server.url, token, 'tools/call', START, TASKS)).response);
    assert.equal(created['resultType'], 'task');
    const taskId = created['taskId'] as string;
    let key = '';
    await eventually('the task asks for its review', async () => {
      const task = resultOf((await modernPost(server.url, token, 'tasks/get', { taskId }, TASKS)).response);
      key = Object.keys((task['inputRequests'] as JsonObject | undefined) ?? {})[0] ?? '';
      return task['status'] === 'input_required';
    });
    return { taskId, key };
  }

  async function statusOf(taskId: string): Promise<string> {
    const task = resultOf((await modernPost(server.url, TOKEN, 'tasks/get', { taskId }, TASKS)).response);
    return task['status'] as string;
  }

  test('the official Tasks requester drives a run to completed, answering its review form through tasks/update', async () => {
    const client = await v2Client(server.url, TOKEN, true);
    const asked: ApplicationInputRequest[] = [];
    const session = requester(client, asked, { action: 'accept', content: { approved: true } });
    try {
      const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
      assert.deepEqual(caps?.extensions?.[TASKS_EXTENSION_ID], {});
      const execution = await session.callTool(START.name, START.arguments);
      assert.equal(execution.kind, 'task', 'workflow_run_start became a task');
      const { outcome } = await execution.settle();
      assert.equal(outcome.status, 'completed');
      assert.equal(asked.length, 1, 'the person was asked once');
      const form = asked[0];
      assert.equal(form?.kind, 'elicitation');
      const schema = (form?.params as { requestedSchema: { properties: Record<string, { type: string }> } })
        .requestedSchema;
      assert.equal(schema.properties['approved']?.type, 'boolean');
      // The task's result is workflow_run_start's own result shape, for the completed run.
      const result = (outcome as { result: { isError?: boolean; structuredContent: JsonObject } }).result;
      assert.equal(result.isError, false);
      assert.equal(result.structuredContent['run_status'], 'completed');
      const listed = (await client.listTools()).tools.find((t) => t.name === START.name);
      const check = new SchemaCompiler().compile(listed?.outputSchema as JsonObject);
      assert.deepEqual(check(result.structuredContent), { ok: true });
    } finally {
      await session.close();
      await client.close();
    }
  });

  /** The official requester over `client`, answering every form with `answer` and recording what it was asked. */
  function requester(client: Client, asked: ApplicationInputRequest[], answer: JsonObject) {
    return createTaskSessionFromClient(client, {
      endpointId: 'rimthan-runs',
      rawDispatch: async (request) =>
        (await modernPost(server.url, TOKEN, ...wireParts(request), TASKS)).response as never,
      v2RequestFraming: {
        protocolVersion: MODERN_REVISION,
        clientInfo: { name: 'rimthan-tasks-test', version: '1.0.0' },
        clientCapabilities: TASKS,
      },
      onInputRequest: (request) => {
        asked.push(request);
        return Promise.resolve(answer as never);
      },
    });
  }

  test('the official Tasks requester: a person who declines the review form ends with the task cancelled', async () => {
    const client = await v2Client(server.url, TOKEN, true);
    const asked: ApplicationInputRequest[] = [];
    const session = requester(client, asked, { action: 'decline' });
    try {
      const execution = await session.callTool(START.name, START.arguments);
      assert.equal(execution.kind, 'task');
      const { outcome } = await execution.settle();
      assert.equal(outcome.status, 'cancelled');
      assert.equal(asked.length, 1, 'asked once, never again after the decline');
    } finally {
      await session.close();
      await client.close();
    }
  });

  test('clients that did not declare the extension get the plain tools, and cannot reach tasks', async () => {
    // A 2026 client without the extension: workflow_run_start is the plain tool.
    const plain = await v2Client(server.url, TOKEN, false);
    const v1 = new V1Client({ name: 'rimthan-v1', version: '1.0.0' });
    try {
      const started = await modernCall(plain, START.name, START.arguments);
      assert.equal(started.isError, false, JSON.stringify(started.value));
      assert.equal(started.value['idempotent'], false);
      const runId = started.value['run_id'] as string;
      // tasks/get from a request that did not declare the extension: -32021, naming the extension.
      const refused = errorOf((await modernPost(server.url, TOKEN, 'tasks/get', { taskId: runId })).response);
      assert.equal(refused.code, -32021);
      assert.deepEqual(refused.data, { requiredCapabilities: TASKS });
      // Whatever it sent: malformed params do not turn the missing capability into another error.
      const malformed = errorOf((await modernPost(server.url, TOKEN, 'tasks/update', { taskId: 7 })).response);
      assert.equal(malformed.code, -32021);
      // A 2025-era client (the v1 SDK): seven tools, a plain start, no task.
      await v1.connect(
        new V1HttpTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
      );
      assert.equal((await v1.listTools()).tools.length, 7);
      const old = (await v1.callTool(START)) as { structuredContent?: JsonObject; resultType?: unknown };
      assert.equal(old.resultType, undefined);
      assert.equal(typeof old.structuredContent?.['run_id'], 'string');
    } finally {
      await plain.close();
      await v1.close();
    }
  });

  test('on the wire: isolation, closed params, stale keys ignored, invalid and malformed answers refused, a declined form cancels', async () => {
    const { taskId, key } = await waitingTask();
    assert.match(key, /^resume-r\d+$/);
    // Another principal's task is not found, exactly like an unknown one.
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const stranger = errorOf((await modernPost(server.url, OTHER_TOKEN, method, { taskId }, TASKS)).response);
      assert.deepEqual([stranger.code, stranger.message], [-32602, 'task not found'], method);
    }
    const unknown = errorOf(
      (await modernPost(server.url, TOKEN, 'tasks/get', { taskId: '00000000-0000-4000-8000-000000000000' }, TASKS))
        .response,
    );
    assert.deepEqual([unknown.code, unknown.message], [-32602, 'task not found']);
    const strangerUpdate = { taskId, inputResponses: { [key]: { action: 'accept', content: { approved: true } } } };
    const strangerUpdated = (await modernPost(server.url, OTHER_TOKEN, 'tasks/update', strangerUpdate, TASKS)).response;
    assert.equal(errorOf(strangerUpdated).message, 'task not found');
    // Closed params: an extra key or an over-long id is refused without echoing it.
    for (const params of [{ taskId, extra: 'secret-marker' }, { taskId: 'x'.repeat(65) }]) {
      const bad = errorOf((await modernPost(server.url, TOKEN, 'tasks/get', params, TASKS)).response);
      assert.equal(bad.code, -32602);
      assert.doesNotMatch(JSON.stringify(bad), /secret-marker|xxxxxxxx/);
    }
    // A response under a key that is not outstanding is ignored: acknowledged, the run still waits.
    const stale = { taskId, inputResponses: { 'resume-r0': { action: 'accept', content: { approved: true } } } };
    assert.equal(
      resultOf((await modernPost(server.url, TOKEN, 'tasks/update', stale, TASKS)).response)['resultType'],
      'complete',
    );
    assert.equal(await statusOf(taskId), 'input_required');
    // Refused, the form still outstanding: an answer of the wrong type (as workflow_run_resume refuses it), a malformed
    // response to the outstanding key, no response at all, inputResponses that are not an object.
    const update = async (inputResponses: unknown) =>
      errorOf(
        (await modernPost(server.url, TOKEN, 'tasks/update', { taskId, inputResponses } as JsonObject, TASKS)).response,
      );
    const invalid = await update({ [key]: { action: 'accept', content: { approved: 'yes', 'secret-field': 1 } } });
    assert.deepEqual([invalid.code, invalid.data?.['code']], [-32602, 'invalid_input']);
    const extraField = await update({ [key]: { action: 'accept', content: { approved: true, 'secret-field': 1 } } });
    assert.equal(extraField.code, -32602);
    assert.doesNotMatch(JSON.stringify([invalid, extraField]), /secret-field/, 'no echo of the answer');
    for (const malformed of [{ [key]: { method: 'elicitation/create', result: {} } }, {}, 'garbage', [], 42]) {
      assert.equal((await update(malformed)).code, -32602, JSON.stringify(malformed));
    }
    assert.equal(await statusOf(taskId), 'input_required');
    // Declined: acknowledged, and the task is cancelled (the run cannot go on without the answer; the key is spent).
    const declined = (
      await modernPost(
        server.url,
        TOKEN,
        'tasks/update',
        { taskId, inputResponses: { [key]: { action: 'decline' } } },
        TASKS,
      )
    ).response;
    assert.equal(resultOf(declined)['resultType'], 'complete');
    await eventually('the declined task is cancelled', async () => (await statusOf(taskId)) === 'cancelled');
    const run = await v2Client(server.url, TOKEN, false);
    try {
      assert.equal((await modernCall(run, 'workflow_run_get', { run_id: taskId })).value['run_status'], 'cancelled');
    } finally {
      await run.close();
    }
  });

  test('tasks/cancel answers exactly as workflow_run_cancel: a waiting run cancelled, again acknowledged, a finished one refused', async () => {
    const waiting = await waitingTask();
    const cancel = async (taskId: string) =>
      (await modernPost(server.url, TOKEN, 'tasks/cancel', { taskId }, TASKS)).response;
    assert.equal(resultOf(await cancel(waiting.taskId))['resultType'], 'complete');
    await eventually('the task is cancelled', async () => (await statusOf(waiting.taskId)) === 'cancelled');
    assert.equal(resultOf(await cancel(waiting.taskId))['resultType'], 'complete', 'cancelling again: idempotent');
    const done = await waitingTask();
    const accept = {
      taskId: done.taskId,
      inputResponses: { [done.key]: { action: 'accept', content: { approved: true } } },
    };
    resultOf((await modernPost(server.url, TOKEN, 'tasks/update', accept, TASKS)).response);
    await eventually('the task completes', async () => (await statusOf(done.taskId)) === 'completed');
    // A completed task: the refusal workflow_run_cancel gives, as a JSON-RPC error (-32602 for a terminal task).
    const refused = errorOf(await cancel(done.taskId));
    const plain = await v2Client(server.url, TOKEN, false);
    try {
      const tool = await modernCall(plain, 'workflow_run_cancel', { run_id: done.taskId });
      assert.equal(tool.isError, true);
      const toolError = tool.value['error'] as JsonObject;
      assert.deepEqual(
        [refused.code, refused.message, refused.data?.['code']],
        [-32602, toolError['message'], toolError['code']],
      );
      assert.equal(toolError['code'], 'conflict');
    } finally {
      await plain.close();
    }
    assert.equal(await statusOf(done.taskId), 'completed', 'and stays completed');
  });

  test('the official requester: a run whose resume no form can ask is input_required, and ends once resumed', async () => {
    const client = await v2Client(server.url, TOKEN, true);
    const plain = await v2Client(server.url, TOKEN, false);
    const asked: ApplicationInputRequest[] = [];
    const session = requester(client, asked, { action: 'decline' });
    const stop = new AbortController();
    const seen: string[] = [];
    let resumed = false;
    try {
      const execution = await session.callTool(NESTED_START.name, NESTED_START.arguments);
      assert.equal(execution.kind, 'task');
      const runId = execution.handle?.taskId as string;
      const settled = await execution.settle({
        signal: stop.signal,
        onEvent: async (event) => {
          if (event.type !== 'task' || resumed) return;
          const { status, retentionMs } = event.task;
          seen.push(status);
          assert.equal(retentionMs, TASK_TTL_MS, 'a real ttlMs');
          const run = await modernCall(plain, 'workflow_run_get', { run_id: runId });
          if (run.value['run_status'] !== 'interrupted') return;
          // The run stays interrupted until resumed, so the task read now must say so (the event may predate it).
          const task = resultOf((await modernPost(server.url, TOKEN, 'tasks/get', { taskId: runId }, TASKS)).response);
          if (task['status'] !== 'input_required') {
            seen.push(task['status'] as string);
            stop.abort(); // the run waits for a resume, yet the task says otherwise: it would never move
            return;
          }
          assert.deepEqual(task['inputRequests'], {}, 'nothing a form could ask');
          const statusMessage = task['statusMessage'] as string;
          // The status message says what resumes the run; the agent does just that.
          assert.match(statusMessage, /workflow_run_resume with run_id/);
          const resume = { review: { approved: true, notes: ['fine'] } };
          const done = await modernCall(plain, 'workflow_run_resume', { run_id: runId, resume });
          assert.equal(done.isError, false, JSON.stringify(done.value));
          resumed = true;
        },
      });
      assert.ok(resumed, `the task told the requester the run waits for a resume (statuses seen: ${seen.join(', ')})`);
      assert.equal(settled.outcome.status, 'completed');
      assert.equal(asked.length, 0, 'no form was asked: none can ask this resume');
    } catch (error) {
      if (stop.signal.aborted) assert.fail(`the waiting run was reported as ${seen.at(-1) ?? 'nothing'}`);
      throw error;
    } finally {
      await session.close();
      await client.close();
      await plain.close();
    }
  });

  test('over stdio: a task created, its review answered through tasks/update, completed', async () => {
    const store = `sqlite:${join(work, 'stdio-runs.db')}`;
    const served = rawStdio(['--profile', 'runs', '--store', store, '--flows', flows], env);
    try {
      const created = resultOf(await served.request('tools/call', START, TASKS));
      assert.equal(created['resultType'], 'task');
      const taskId = created['taskId'] as string;
      const get = async (): Promise<JsonObject> => resultOf(await served.request('tasks/get', { taskId }, TASKS));
      let waiting: JsonObject = {};
      await eventually('the task asks for its review', async () => {
        waiting = await get();
        return waiting['status'] === 'input_required';
      });
      const [key] = Object.keys(waiting['inputRequests'] as JsonObject);
      assert.ok(key !== undefined);
      const answer = { taskId, inputResponses: { [key]: { action: 'accept', content: { approved: true } } } };
      resultOf(await served.request('tasks/update', answer, TASKS));
      let done: JsonObject = {};
      await eventually('the task completes', async () => {
        done = await get();
        return done['status'] === 'completed';
      });
      // Progress: the run's vertices, in the status message and in `_meta`.
      const progress = (done['_meta'] as JsonObject | undefined)?.['dev.rimthan/progress'] as JsonObject | undefined;
      assert.ok(progress !== undefined && progress['total'] === 3, JSON.stringify(done));
      assert.equal(progress['completed'], 3);
      assert.match(done['statusMessage'] as string, /3 of 3 steps done/);
      const result = done['result'] as { resultType: string; structuredContent: JsonObject };
      assert.equal(result.resultType, 'complete');
      assert.equal(result.structuredContent['run_status'], 'completed');
      // Without the extension on the request, the same server refuses tasks/get.
      assert.equal(errorOf(await served.request('tasks/get', { taskId })).code, -32021);
    } finally {
      await served.close();
    }
  });
});

/** A requester's raw request (`{method, params}` without framing) as modernPost's method and params. */
function wireParts(request: unknown): [string, JsonObject] {
  const { method, params } = request as { method: string; params?: JsonObject };
  const { _meta: _envelope, ...rest } = params ?? {};
  return [method, rest];
}
