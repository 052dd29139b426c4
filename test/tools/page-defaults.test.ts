/**
 * The documented default page size of the two paged run tools (run-tools-contract.md: limit 1..100, default 50): a
 * call without `limit` returns 50 entries and a cursor when more remain, and the cursor reads the rest without a gap.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../src/core/index.js';
import type { RunTool } from '../../src/tools/index.js';
import { insertPendingRun, openStack, type Stack } from './harness.js';

const SESSION = 'page-defaults';

describe('paged run tools: the default page is 50', () => {
  let stack: Stack;
  let tools: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools(SESSION);
  });
  after(() => stack.close());

  test('workflow_run_list without limit: 50 runs and a cursor to the 51st', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 51; i++) ids.add((await insertPendingRun(stack, SESSION, randomUUID())).run_id);
    const first = await stack.ok(tools, 'workflow_run_list', {});
    const runs = first['runs'] as JsonObject[];
    assert.equal(runs.length, 50);
    assert.equal(typeof first['next'], 'string', 'a cursor when more remain');
    const rest = await stack.ok(tools, 'workflow_run_list', { after: first['next'] as string });
    const all = [...runs, ...(rest['runs'] as JsonObject[])].map((r) => r['run_id'] as string);
    assert.deepEqual(new Set(all), ids, 'the cursor reads the rest, each run once');
    assert.equal(all.length, 51);
    assert.equal(rest['next'], undefined);
  });

  test('workflow_run_history without limit: 50 entries and a cursor to the rest', async () => {
    const started = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'approval_flow',
      definition_version: 'v1',
      input: { version: '1.0.0', changes: ['first'] },
    });
    const runId = started['run_id'] as string;
    // Each rejection revises the draft and asks again: a few history entries per round.
    let total = 0;
    for (let round = 0; total <= 60; round++) {
      await stack.waitFor(tools, runId, 'interrupted');
      await stack.ok(tools, 'workflow_run_resume', { run_id: runId, resume: { approved: false, comment: 'again' } });
      await stack.waitFor(tools, runId, 'interrupted');
      const full = await stack.ok(tools, 'workflow_run_history', { run_id: runId, limit: 100 });
      total = (full['entries'] as JsonObject[]).length;
      assert.ok(round < 60, 'the history grows with each round');
    }
    const first = await stack.ok(tools, 'workflow_run_history', { run_id: runId });
    assert.equal((first['entries'] as JsonObject[]).length, 50);
    assert.equal(typeof first['next_revision'], 'number', 'a cursor when more remain');
    const cursor: JsonObject = { run_id: runId, after_revision: first['next_revision'] as number };
    if (typeof first['next_event_id'] === 'string') cursor['after_event_id'] = first['next_event_id'];
    const rest = await stack.ok(tools, 'workflow_run_history', cursor);
    assert.equal((first['entries'] as JsonObject[]).length + (rest['entries'] as JsonObject[]).length, total);
  });
});
