import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { JsonObject } from '../../../src/core/index.js';
import { toAiSdkTools } from '../../../src/tools/adapters/ai-sdk.js';
import { dispatchOpenAiToolCall, toOpenAiFunctionTools } from '../../../src/tools/index.js';
import type { RunTool } from '../../../src/tools/index.js';
import { openStack } from '../harness.js';
import type { Stack } from '../harness.js';

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model that asks for one tool call, then stops once it has seen the result. */
function modelCalling(toolName: string, input: JsonObject): MockLanguageModelV3 {
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: () =>
      Promise.resolve(
        turn++ === 0
          ? {
              content: [{ type: 'tool-call' as const, toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
              finishReason: { unified: 'tool-calls' as const, raw: undefined },
              usage: USAGE,
              warnings: [],
            }
          : {
              content: [{ type: 'text' as const, text: 'done' }],
              finishReason: { unified: 'stop' as const, raw: undefined },
              usage: USAGE,
              warnings: [],
            },
      ),
  });
}

describe('framework adapters drive real runs', () => {
  let stack: Stack;
  let tools: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools();
  });
  after(() => stack.close());

  test('Vercel AI SDK: generateText executes workflow_run_start through invoke', async () => {
    const model = modelCalling('workflow_run_start', {
      definition_name: 'counter_flow',
      definition_version: 'v1',
      input: { count: 3 },
    });
    const result = await generateText({
      model,
      tools: toAiSdkTools(tools),
      prompt: 'start a counter',
      stopWhen: () => false,
    });
    const offered = model.doGenerateCalls[0]?.tools ?? [];
    assert.deepEqual(offered.map((t) => t.name).sort(), tools.map((t) => t.name).sort());
    const startTool = offered.find((t) => t.name === 'workflow_run_start');
    assert.ok(startTool !== undefined && startTool.type === 'function');
    assert.deepEqual(startTool.inputSchema, tools.find((t) => t.name === 'workflow_run_start')?.inputSchema);
    const output = result.steps[0]?.toolResults[0]?.output as JsonObject;
    const runId = output['run_id'] as string;
    assert.equal(output['run_status'], 'running');
    await stack.waitFor(tools, runId, 'completed');
  });

  test('Vercel AI SDK: a refused call comes back as an error value the model can read', async () => {
    const model = modelCalling('workflow_run_get', { run_id: 'nope', extra: true });
    const result = await generateText({ model, tools: toAiSdkTools(tools), prompt: 'get', stopWhen: () => false });
    const output = result.steps[0]?.toolResults[0]?.output as JsonObject;
    assert.equal((output['error'] as JsonObject)['code'], 'invalid_arguments');
  });

  test('OpenAI: function definitions carry the schemas, strict off for documented reasons', () => {
    const defs = toOpenAiFunctionTools(tools);
    assert.equal(defs.length, 7);
    for (const def of defs) {
      const tool = tools.find((t) => t.name === def.function.name);
      assert.equal(def.type, 'function');
      assert.equal(def.function.description, tool?.description);
      assert.deepEqual(def.function.parameters, tool?.inputSchema);
      assert.equal(def.function.strict, false);
    }
  });

  test('OpenAI: dispatching tool calls starts, reads and cancels a real run', async () => {
    const started = JSON.parse(
      await dispatchOpenAiToolCall(tools, {
        name: 'workflow_run_start',
        arguments: JSON.stringify({
          definition_name: 'approval_flow',
          definition_version: 'v1',
          input: { version: '2.0.0', changes: ['x'] },
        }),
      }),
    ) as JsonObject;
    const runId = started['run_id'] as string;
    await stack.waitFor(tools, runId, 'interrupted');
    const got = JSON.parse(
      await dispatchOpenAiToolCall(tools, { name: 'workflow_run_get', arguments: JSON.stringify({ run_id: runId }) }),
    ) as JsonObject;
    assert.equal(got['run_status'], 'interrupted');
    const cancelled = JSON.parse(
      await dispatchOpenAiToolCall(tools, {
        name: 'workflow_run_cancel',
        arguments: JSON.stringify({ run_id: runId }),
      }),
    ) as JsonObject;
    assert.deepEqual(cancelled, { run_id: runId, run_status: 'cancelled', idempotent: false });
    const bad = JSON.parse(
      await dispatchOpenAiToolCall(tools, { name: 'workflow_run_get', arguments: '{"run_id":1} 2' }),
    ) as JsonObject;
    assert.equal((bad['error'] as JsonObject)['code'], 'invalid_arguments');
    const unknown = JSON.parse(await dispatchOpenAiToolCall(tools, { name: 'rm_rf', arguments: '{}' })) as JsonObject;
    assert.equal((unknown['error'] as JsonObject)['code'], 'not_found');
  });
});
