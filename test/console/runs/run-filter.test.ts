/**
 * The console's run filter (`GET /api/runs?definition=&status=`, docs/console.md): `definition` is NAME or
 * NAME@VERSION and combines with `status`; runs are found across list pages, in creation order; a malformed filter is
 * `invalid_arguments`. ConsoleRuns over the real run tools and a real SQLite store.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { ConsoleRuns } from '../../../src/console/runs/runs-api.js';
import { createPendingRun } from '../../runs/helpers.js';
import { openStack, type Stack } from '../../tools/harness.js';

const SESSION = 'console-filter';

describe('console run filter by definition', () => {
  let stack: Stack;
  let runs: ConsoleRuns;
  const counters: string[] = [];
  const approvals: string[] = [];

  before(async () => {
    stack = await openStack();
    runs = new ConsoleRuns((session) => stack.tools(session));
    // 130 runs (more than one list page of 100), the two definitions interleaved, all pending (nothing executes them).
    for (let i = 0; i < 130; i++) {
      const counter = i % 3 !== 0;
      const run = await createPendingRun(stack.store, {
        sessionId: SESSION,
        runId: randomUUID(),
        name: counter ? 'counter_flow' : 'approval_flow',
        version: 'v1',
        input: counter ? { count: i } : { version: '1.0.0', changes: [`change ${i}`] },
      });
      (counter ? counters : approvals).push(run.run_id);
    }
    // Another session's counter runs are never found.
    await createPendingRun(stack.store, {
      sessionId: 'someone-else',
      name: 'counter_flow',
      version: 'v1',
      input: { count: 0 },
    });
  });
  after(() => stack.close());

  async function found(filter: { definition?: string; status?: string }): Promise<string[]> {
    const ids: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const answer = await runs.find(SESSION, { ...filter, ...(after === undefined ? {} : { after }) });
      assert.ok(answer.ok, JSON.stringify(answer));
      if (!answer.ok) return ids;
      ids.push(...(answer.value['runs'] as JsonObject[]).map((r) => r['run_id'] as string));
      after = answer.value['next'] as string | undefined;
      if (after === undefined) return ids;
    }
    assert.fail('the filter never reached the end of the list');
  }

  test("NAME finds exactly that definition's runs, in creation order, across list pages", async () => {
    assert.deepEqual(await found({ definition: 'counter_flow' }), counters);
    assert.deepEqual(await found({ definition: 'approval_flow' }), approvals);
  });

  test('NAME@VERSION pins the version; another version or an unknown name finds nothing', async () => {
    assert.deepEqual(await found({ definition: 'counter_flow@v1' }), counters);
    assert.deepEqual(await found({ definition: 'counter_flow@v2' }), []);
    assert.deepEqual(await found({ definition: 'counter' }), [], 'no prefix match');
    assert.deepEqual(await found({ definition: 'nobody_flow' }), []);
  });

  test('with status: both must match', async () => {
    assert.deepEqual(await found({ definition: 'approval_flow', status: 'pending' }), approvals);
    assert.deepEqual(await found({ definition: 'approval_flow', status: 'completed' }), []);
  });

  test('an empty or overlong definition is invalid_arguments', async () => {
    for (const definition of ['', 'x'.repeat(258)]) {
      const answer = await runs.find(SESSION, { definition });
      assert.equal(answer.ok, false);
      if (!answer.ok) {
        assert.equal(answer.error.code, 'invalid_arguments');
        assert.equal(answer.error.message, 'argument "definition" must be NAME or NAME@VERSION');
      }
    }
  });
});
