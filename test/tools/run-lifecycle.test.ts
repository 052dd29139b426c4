import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../src/core/index.js';
import type { RunTool } from '../../src/tools/index.js';
import { insertPendingRun, openStack, SESSION_A, SESSION_B, spyController } from './harness.js';
import type { Stack } from './harness.js';

const COUNTER = { definition_name: 'counter_flow', definition_version: 'v1' };
const RELEASE = { definition_name: 'approval_flow', definition_version: 'v1' };
const RELEASE_INPUT = { version: '1.2.3', changes: ['fix the thing'] };

describe('run lifecycle tools', () => {
  let stack: Stack;
  let tools: RunTool[];
  let others: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools();
    others = stack.tools(SESSION_B);
  });
  after(() => stack.close());

  async function startRelease(): Promise<string> {
    const value = await stack.ok(tools, 'workflow_run_start', { ...RELEASE, input: RELEASE_INPUT });
    const runId = value['run_id'] as string;
    await stack.waitFor(tools, runId, 'interrupted');
    return runId;
  }

  test('a run of another session is not_found, exactly like a missing run, for every run tool', async () => {
    const runId = await startRelease();
    const missing = randomUUID();
    const calls: [string, (id: string) => JsonObject][] = [
      ['workflow_run_get', (id) => ({ run_id: id })],
      ['workflow_run_history', (id) => ({ run_id: id })],
      ['workflow_run_resume', (id) => ({ run_id: id, resume: { approved: true } })],
      ['workflow_run_cancel', (id) => ({ run_id: id })],
    ];
    for (const [name, args] of calls) {
      const foreign = await stack.fails(others, name, args(runId), 'not_found');
      const absent = await stack.fails(others, name, args(missing), 'not_found');
      assert.equal(foreign, absent, name);
    }
    const listed = await stack.ok(others, 'workflow_run_list', {});
    assert.ok(!(listed['runs'] as JsonObject[]).some((r) => r['run_id'] === runId));
    assert.equal(
      (await stack.ok(tools, 'workflow_run_get', { run_id: runId }))['run_status'],
      'interrupted',
      'untouched',
    );
  });

  test('resume validates against the pinned resume schema and continues the run', async () => {
    const runId = await startRelease();
    const run = await stack.ok(tools, 'workflow_run_get', { run_id: runId });
    assert.deepEqual(run['interrupt'], {
      reason: 'awaiting_input',
      vertex: 'await_approval',
      vertex_label: 'Await approval',
      resume_supported: true,
    });
    const message = await stack.fails(
      tools,
      'workflow_run_resume',
      { run_id: runId, resume: { approved: 'SECRET-YES' } },
      'invalid_input',
    );
    assert.match(message, /type at #\/properties\/approved\/type/);
    assert.doesNotMatch(message, /SECRET-YES/);
    await stack.fails(
      tools,
      'workflow_run_resume',
      { run_id: runId, resume: { approved: true, extra: 1 } },
      'invalid_input',
    );
    const resumed = await stack.ok(tools, 'workflow_run_resume', { run_id: runId, resume: { approved: true } });
    assert.notEqual(resumed['run_status'], 'interrupted');
    await stack.waitFor(tools, runId, 'completed');
    const conflict = await stack.fails(
      tools,
      'workflow_run_resume',
      { run_id: runId, resume: { approved: true } },
      'conflict',
    );
    assert.match(conflict, /completed/);
  });

  test('resume of a definition without resume schema is resume_not_supported', async () => {
    const value = await stack.ok(tools, 'workflow_run_start', { ...COUNTER, input: { count: 1 } });
    await stack.fails(
      tools,
      'workflow_run_resume',
      { run_id: value['run_id'] as string, resume: {} },
      'resume_not_supported',
    );
  });

  test('cancel: interrupted → cancelled, then idempotent; reason bounded before trimming', async () => {
    const runId = await startRelease();
    await stack.fails(tools, 'workflow_run_cancel', { run_id: runId, reason: ' '.repeat(513) }, 'invalid_arguments');
    await stack.fails(tools, 'workflow_run_cancel', { run_id: runId, reason: 'é'.repeat(257) }, 'invalid_arguments');
    const first = await stack.ok(tools, 'workflow_run_cancel', { run_id: runId, reason: '   ' });
    assert.deepEqual(first, { run_id: runId, run_status: 'cancelled', idempotent: false });
    const history = await stack.ok(tools, 'workflow_run_history', { run_id: runId });
    const cancelled = (history['entries'] as JsonObject[]).find((e) => e['kind'] === 'run_cancelled');
    assert.equal(cancelled?.['message'], 'cancel requested');
    const before = await stack.store.getRun(SESSION_A, runId);
    const spy = spyController(stack, SESSION_A);
    const spied = stack.tools(SESSION_A, { supervisor: spy.controller });
    const again = await stack.ok(spied, 'workflow_run_cancel', { run_id: runId, reason: 'again' });
    assert.deepEqual(again, { run_id: runId, run_status: 'cancelled', idempotent: true });
    assert.deepEqual(spy.calls, [], 'the engine was not asked');
    assert.equal(
      (await stack.store.getRun(SESSION_A, runId))?.record_revision,
      before?.record_revision,
      'nothing written',
    );
  });

  test('cancel: a pending run is cancelled at once; a completed run is a conflict', async () => {
    const pendingId = randomUUID();
    await insertPendingRun(stack, SESSION_A, pendingId);
    assert.equal((await stack.ok(tools, 'workflow_run_get', { run_id: pendingId }))['run_status'], 'pending');
    const cancelled = await stack.ok(tools, 'workflow_run_cancel', { run_id: pendingId });
    assert.deepEqual(cancelled, { run_id: pendingId, run_status: 'cancelled', idempotent: false });
    const done = await stack.ok(tools, 'workflow_run_start', { ...COUNTER, input: { count: 1 } });
    await stack.waitFor(tools, done['run_id'] as string, 'completed');
    await stack.fails(tools, 'workflow_run_cancel', { run_id: done['run_id'] as string }, 'conflict');
  });
});

describe('paging', () => {
  let stack: Stack;
  let tools: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools();
  });
  after(() => stack.close());

  test('run list pages follow creation order with an opaque cursor', async () => {
    const started: string[] = [];
    for (let i = 0; i < 7; i++) {
      const value = await stack.ok(tools, 'workflow_run_start', { ...COUNTER, input: { count: i } });
      started.push(value['run_id'] as string);
    }
    await stack.ok(stack.tools(SESSION_B), 'workflow_run_start', { ...COUNTER, input: { count: 0 } });
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await stack.ok(tools, 'workflow_run_list', after === undefined ? { limit: 3 } : { after, limit: 3 });
      seen.push(...(page['runs'] as JsonObject[]).map((r) => r['run_id'] as string));
      after = page['next'] as string | undefined;
      pages++;
    } while (after !== undefined);
    assert.deepEqual(seen, started);
    assert.equal(pages, 3);
    const all = await stack.ok(tools, 'workflow_run_list', {});
    assert.equal((all['runs'] as JsonObject[]).length, 7);
    assert.equal('next' in all, false);
    await stack.fails(tools, 'workflow_run_list', { after: 'bm90LWEtY3Vyc29y' }, 'invalid_arguments');
    await stack.fails(tools, 'workflow_run_list', { limit: 0 }, 'invalid_arguments');
    await stack.fails(tools, 'workflow_run_list', { limit: 101 }, 'invalid_arguments');
  });

  test('history pages keep revisions whole, split only an oversized one, and concatenate losslessly', async () => {
    const value = await stack.ok(tools, 'workflow_run_start', { ...COUNTER, input: { count: 1 } });
    const runId = value['run_id'] as string;
    await stack.waitFor(tools, runId, 'completed');
    const whole = await stack.ok(tools, 'workflow_run_history', { run_id: runId });
    const entries = whole['entries'] as JsonObject[];
    assert.equal('next_revision' in whole, false);
    assert.deepEqual(
      entries.map((e) => e['kind']),
      ['run_started', 'vertex_completed', 'vertex_completed', 'vertex_completed', 'run_completed'],
    );
    const lastRevision = entries[entries.length - 1]?.['revision'];
    assert.equal(entries[entries.length - 2]?.['revision'], lastRevision, 'the final revision holds two entries');

    for (const limit of [1, 2, 3, 4, 5]) {
      const pages: JsonObject[][] = [];
      let cursor: JsonObject = {};
      for (;;) {
        const page = await stack.ok(tools, 'workflow_run_history', { run_id: runId, limit, ...cursor });
        const got = page['entries'] as JsonObject[];
        assert.ok(got.length <= limit);
        pages.push(got);
        if (page['next_revision'] === undefined) {
          assert.equal(page['next_event_id'], undefined);
          break;
        }
        cursor = { after_revision: page['next_revision'] };
        if (page['next_event_id'] !== undefined) {
          assert.equal(page['next_revision'], got[got.length - 1]?.['revision'], 'split inside the last revision');
          assert.ok(
            got.every((e) => e['revision'] === page['next_revision']),
            'only an oversized revision is split',
          );
          cursor = { ...cursor, after_event_id: page['next_event_id'] };
        }
      }
      assert.deepEqual(pages.flat(), entries, `limit ${limit}`);
      for (const page of pages.slice(0, -1)) {
        const next = pages[pages.indexOf(page) + 1]?.[0];
        const last = page[page.length - 1];
        if (next !== undefined && last !== undefined && next['revision'] === last['revision']) {
          assert.ok(
            page.every((e) => e['revision'] === last['revision']),
            `limit ${limit}: a revision was split needlessly`,
          );
        }
      }
    }
    const split = await stack.ok(tools, 'workflow_run_history', {
      run_id: runId,
      limit: 1,
      after_revision: (lastRevision as number) - 1,
    });
    assert.equal(split['next_revision'], lastRevision);
    assert.equal(split['next_event_id'], (split['entries'] as JsonObject[])[0]?.['event_id']);
    await stack.fails(
      tools,
      'workflow_run_history',
      { run_id: runId, after_event_id: randomUUID() },
      'invalid_arguments',
    );
    await stack.fails(
      tools,
      'workflow_run_history',
      { run_id: runId, after_revision: 0, after_event_id: randomUUID() },
      'invalid_arguments',
    );
    const max = await stack.ok(tools, 'workflow_run_history', { run_id: runId, limit: 100 });
    assert.deepEqual(max['entries'], entries);
    await stack.fails(tools, 'workflow_run_history', { run_id: runId, limit: 101 }, 'invalid_arguments');
    // Past the highest revision any run can have: a clear argument error, not a store failure ("unavailable").
    const beyond = await stack.ok(tools, 'workflow_run_history', { run_id: runId, after_revision: 2_147_483_646 });
    assert.deepEqual(beyond['entries'], []);
    const message = await stack.fails(
      tools,
      'workflow_run_history',
      { run_id: runId, after_revision: 3_000_000_000 },
      'invalid_arguments',
    );
    assert.match(message, /after_revision/);
  });
});
