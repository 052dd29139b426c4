/**
 * Strict argument decoding under attack (spec: run-tools-contract.md "Arguments are decoded strictly before any
 * dependency is touched", "Documents ≤256 KiB, depth ≤32"): the size cap holds on the raw text, and what JSON.parse
 * lets through (prototype keys, numbers that overflow to Infinity, integers past 2^53) is refused as
 * invalid_arguments before the store or the engine sees the call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { toAiSdkTools } from '../../../src/tools/adapters/ai-sdk.js';
import type { RunTool } from '../../../src/tools/index.js';
import { openStack, spyController } from '../../tools/harness.js';
import type { Stack } from '../../tools/harness.js';

const RUN = '3f0b8a52-8d6e-4c1f-9a57-0c7e2f1b9d44';

describe('run tool arguments under attack', () => {
  let stack: Stack;
  let tools: RunTool[];
  let engineCalls: string[];

  before(async () => {
    stack = await openStack();
    const spy = spyController(stack, 'sec-session');
    engineCalls = spy.calls;
    tools = stack.tools('sec-session', { supervisor: spy.controller });
  });
  after(() => stack.close());

  test('the 1 MiB cap applies to the raw text, whitespace included, before any parsing', async () => {
    const message = await stack.fails(tools, 'workflow_run_list', ' '.repeat(1024 * 1024 + 1), 'invalid_arguments');
    assert.match(message, /size|exceed/);
    const padded = `{"run_id":"${RUN}"}${' '.repeat(1024 * 1024)}`;
    await stack.fails(tools, 'workflow_run_get', padded, 'invalid_arguments');
  });

  test('__proto__ is refused at any depth, not only as a top-level argument', async () => {
    for (const text of [
      `{"run_id":"${RUN}","resume":{"__proto__":{"answer":1}}}`,
      `{"run_id":"${RUN}","resume":{"a":[{"b":{"\\u005f_proto__":null}}]}}`,
    ]) {
      const message = await stack.fails(tools, 'workflow_run_resume', text, 'invalid_arguments');
      assert.match(message, /__proto__|prototype key/);
    }
    await stack.fails(
      tools,
      'workflow_run_start',
      '{"definition_name":"blocking_flow","definition_version":"v1","input":{"marker":"m","extra":{"__proto__":{"x":1}}}}',
      'invalid_arguments',
    );
    assert.deepEqual(engineCalls, [], 'nothing reached the engine');
  });

  test('numbers JSON cannot carry are refused as invalid_arguments, not turned into null or Infinity', async () => {
    for (const number of ['1e400', '-1e400', '1E999']) {
      await stack.fails(
        tools,
        'workflow_run_resume',
        `{"run_id":"${RUN}","resume":{"answer":${number}}}`,
        'invalid_arguments',
      );
    }
    assert.deepEqual(engineCalls, []);
  });

  test('integer cursors past 2^53 are refused instead of reaching the store', async () => {
    for (const revision of ['1e300', '9007199254740993']) {
      await stack.fails(
        tools,
        'workflow_run_history',
        `{"run_id":"${RUN}","after_revision":${revision}}`,
        'invalid_arguments',
      );
    }
    assert.deepEqual(engineCalls, []);
  });

  test('the AI SDK adapter hands the tool exactly what the model sent: Infinity is refused, not sent as null', async () => {
    const resume = toAiSdkTools(tools)['workflow_run_resume'];
    assert.ok(resume?.execute !== undefined);
    const output = (await resume.execute(
      { run_id: RUN, resume: { answer: Number.POSITIVE_INFINITY } },
      { toolCallId: 'call-1', messages: [] },
    )) as { error?: { code: string } };
    assert.equal(output.error?.code, 'invalid_arguments');
    assert.deepEqual(engineCalls, []);
  });

  test('nesting deeper than 32 is refused however deep, without a stack overflow', async () => {
    for (const depth of [33, 100_000]) {
      const resume = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      await stack.fails(
        tools,
        'workflow_run_resume',
        `{"run_id":"${RUN}","resume":{"a":${resume}}}`,
        'invalid_arguments',
      );
    }
  });
});
