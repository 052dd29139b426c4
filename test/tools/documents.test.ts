/**
 * The document rules of `input` and `resume` ("Documents ≤256 KiB, depth ≤32"): the limits hold on the document
 * itself (not on the argument object around it) and on its canonical RFC 8785 form, the bytes that are hashed and
 * stored. A document over a limit is the caller's mistake, never a "retry later".
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/index.js';
import type { RunTool } from '../../src/tools/index.js';
import { openStack } from './harness.js';
import type { Stack } from './harness.js';

/** An object nesting `levels` levels deep (`{}` is one level). */
function nested(levels: number): JsonObject {
  let value: JsonObject = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** `count` copies of 1e20 in an array: 5 bytes each as sent, 21 digits each in canonical form. */
function widening(count: number): string {
  return `[${Array<string>(count).fill('1e20').join(',')}]`;
}

describe('input and resume documents', () => {
  let stack: Stack;
  let tools: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools();
  });
  after(() => stack.close());

  async function runCount(): Promise<number> {
    const listed = await stack.ok(tools, 'workflow_run_list', { limit: 100 });
    return (listed['runs'] as JsonObject[]).length;
  }

  test('an input document nesting exactly 32 levels is accepted; 33 levels is refused', async () => {
    const ok = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'blocking_flow',
      definition_version: 'v1',
      input: { marker: 'm', extra: nested(31) },
    });
    assert.equal(ok['run_status'], 'running');
    const message = await stack.fails(
      tools,
      'workflow_run_start',
      { definition_name: 'blocking_flow', definition_version: 'v1', input: { marker: 'm', extra: nested(32) } },
      'invalid_arguments',
    );
    assert.match(message, /depth/);
  });

  test('an input of exactly 256 KiB in canonical form is accepted, though the argument text around it is larger', async () => {
    // {"extra":{"s":"x…x"},"marker":"m"}: 31 bytes besides the string, so the canonical document is 262,144 bytes.
    const input = { marker: 'm', extra: { s: 'x'.repeat(256 * 1024 - 31) } };
    const args = { definition_name: 'blocking_flow', definition_version: 'v1', input };
    assert.ok(JSON.stringify(args).length > 256 * 1024);
    const ok = await stack.ok(tools, 'workflow_run_start', args);
    assert.equal(ok['run_status'], 'running');
    const over = { ...args, input: { ...input, extra: { s: `${input.extra.s}x` } } };
    assert.match(await stack.fails(tools, 'workflow_run_start', over, 'invalid_input'), /262144 bytes/);
  });

  test('an input whose canonical form exceeds 256 KiB is invalid_input and creates no run', async () => {
    const before = await runCount();
    const text =
      '{"definition_name":"blocking_flow","definition_version":"v1",' +
      `"input":{"marker":"m","extra":{"a":${widening(50_000)}}}}`;
    assert.ok(text.length < 256 * 1024, 'the arguments themselves are within the raw size limit');
    const message = await stack.fails(tools, 'workflow_run_start', text, 'invalid_input');
    assert.match(message, /262144 bytes/);
    assert.equal(await runCount(), before);
  });

  test('a resume whose canonical form exceeds 256 KiB is invalid_input', async () => {
    const started = await stack.ok(tools, 'workflow_run_start', {
      definition_name: 'ask_flow',
      definition_version: 'v1',
      input: { marker: 'm' },
    });
    const runId = started['run_id'] as string;
    await stack.waitFor(tools, runId, 'interrupted');
    const text = `{"run_id":"${runId}","resume":{"answer":1,"x":${widening(50_000)}}}`;
    const message = await stack.fails(tools, 'workflow_run_resume', text, 'invalid_input');
    assert.match(message, /262144 bytes/);
    assert.equal((await stack.ok(tools, 'workflow_run_get', { run_id: runId }))['run_status'], 'interrupted');
  });
});
