/**
 * The task a run handle becomes (`taskOfHandle`, what `tasks/get` answers) for every phase, checked with the official
 * Tasks package's own 2026-07-28 wire schemas: a failed run is `completed` with `isError: true` (the revision keeps
 * `failed` for JSON-RPC errors), a waiting one asks its form under a key naming the interruption (or, when no form
 * can ask its resume, asks nothing and says what resumes it), progress is reported, and `ttlMs` is a real lifetime.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DetailedTaskV2Schema, GetTaskResultV2Schema } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { JsonObject } from '../../../src/core/index.js';
import { resumeInputKey, TASK_TTL_MS, taskOfHandle } from '../../../src/mcp/extensions/tasks.js';

const RUN_ID = '0b7f3c1e-8a2d-4c5e-9f10-1234567890ab';

function handle(phase: string, runStatus: string, extra: JsonObject = {}): JsonObject {
  return {
    run_id: RUN_ID,
    phase,
    status_message: runStatus,
    progress: { completed: 1, total: 3 },
    run: {
      run_id: RUN_ID,
      definition_name: 'review_flow',
      definition_version: 'v1',
      run_status: runStatus,
      checkpoint_revision: 4,
      activity_cursor: 5,
      created_at: '2026-12-02T10:00:00.000Z',
      updated_at: '2026-12-02T10:00:05.000Z',
    },
    ...extra,
  };
}

/** Parses with the official schemas, as a 2026 requester reads a tasks/get result (the SDK stamps resultType). */
function parsed(task: JsonObject) {
  assert.ok(DetailedTaskV2Schema.safeParse(task).success, JSON.stringify(task));
  const result = GetTaskResultV2Schema.safeParse({ ...task, resultType: 'complete' });
  assert.ok(result.success, JSON.stringify(result.error?.issues));
  return task;
}

describe('a run handle as a task (tasks/get)', () => {
  test('working: status, timestamps, poll interval and progress', () => {
    const task = parsed(taskOfHandle(handle('working', 'running')));
    assert.equal(task['status'], 'working');
    assert.equal(task['taskId'], RUN_ID);
    assert.equal(task['createdAt'], '2026-12-02T10:00:00.000Z');
    assert.equal(task['lastUpdatedAt'], '2026-12-02T10:00:05.000Z');
    assert.equal(task['ttlMs'], TASK_TTL_MS, 'a real lifetime, not "unknown"');
    assert.equal(TASK_TTL_MS, 30 * 24 * 3600 * 1000);
    assert.equal(task['pollIntervalMs'], 2000);
    assert.equal(task['statusMessage'], 'running; 1 of 3 steps done');
    assert.deepEqual((task['_meta'] as JsonObject)['dev.rimthan/progress'], { completed: 1, total: 3 });
    assert.equal(task['result'], undefined);
  });

  test('awaiting a person: input_required, its form under the interruption key', () => {
    const form = {
      message: 'The run is waiting at "Review" for your answer.',
      schema: { type: 'object', properties: { approved: { type: 'boolean' } }, required: ['approved'] },
      interruption: 'a'.repeat(64),
    };
    const task = parsed(taskOfHandle(handle('awaiting_person', 'interrupted', { form })));
    assert.equal(task['status'], 'input_required');
    const requests = task['inputRequests'] as Record<string, JsonObject>;
    assert.deepEqual(Object.keys(requests), [resumeInputKey(4)]);
    assert.equal(resumeInputKey(4), 'resume-r4');
    const params = requests['resume-r4']?.['params'] as JsonObject;
    assert.equal(requests['resume-r4']?.['method'], 'elicitation/create');
    assert.deepEqual([params['mode'], params['requestedSchema']], ['form', form.schema]);
    assert.equal(JSON.stringify(task).includes('a'.repeat(64)), false, 'the interruption digest stays server-side');
  });

  test('interrupted with a resume no form can ask: input_required, asking nothing, saying what resumes it', () => {
    const status = 'interrupted; resume it with workflow_run_resume (its resume cannot be asked as a form)';
    const task = parsed(taskOfHandle(handle('working', 'interrupted', { status_message: status })));
    assert.equal(task['status'], 'input_required', 'never a working task that cannot move');
    assert.deepEqual(task['inputRequests'], {});
    assert.equal(task['pollIntervalMs'], 2000);
    assert.match(task['statusMessage'] as string, new RegExp(`workflow_run_resume with run_id "${RUN_ID}"`));
    assert.match(task['statusMessage'] as string, /tasks\/cancel/);
  });

  test('completed: workflow_run_start’s result shape, not an error', () => {
    const task = parsed(taskOfHandle(handle('completed', 'completed')));
    assert.equal(task['status'], 'completed');
    assert.equal(task['pollIntervalMs'], undefined);
    const result = task['result'] as { resultType: string; isError: boolean; structuredContent: JsonObject };
    assert.equal(result.resultType, 'complete');
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent['idempotent'], false);
    assert.equal(result.structuredContent['run_status'], 'completed');
  });

  test('failed: completed with isError (a workflow failure is not a JSON-RPC error)', () => {
    const task = parsed(taskOfHandle(handle('failed', 'failed')));
    assert.equal(task['status'], 'completed');
    assert.equal(task['error'], undefined);
    const result = task['result'] as { isError: boolean; structuredContent: JsonObject };
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent['run_status'], 'failed');
  });

  test('cancelled: cancelled, nothing else', () => {
    const task = parsed(taskOfHandle(handle('cancelled', 'cancelled')));
    assert.equal(task['status'], 'cancelled');
    assert.equal(task['result'], undefined);
    assert.equal(task['inputRequests'], undefined);
  });
});
