import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../src/core/index.js';
import type { RunToolsCatalog } from '../../src/tools/index.js';
import { openStack } from './harness.js';
import type { Stack } from './harness.js';

describe('workflow_definition_list', () => {
  let stack: Stack;
  before(async () => {
    stack = await openStack();
  });
  after(() => stack.close());

  test('lists definitions sorted by name then version with their schemas and resume support', async () => {
    const value = await stack.ok(stack.tools(), 'workflow_definition_list', {});
    const defs = value['definitions'] as JsonObject[];
    assert.equal(value['truncated'], false);
    assert.deepEqual(
      defs.map((d) => `${d['name'] as string}@${d['version'] as string}`),
      ['approval_flow@v1', 'ask_flow@v1', 'blocking_flow@v1', 'counter_flow@v1'],
    );
    const release = defs.find((d) => d['name'] === 'approval_flow');
    assert.equal(release?.['resume_supported'], true);
    assert.deepEqual(release?.['resume_schema'], stack.catalog.resolve('approval_flow', 'v1')?.resumeSchema);
    const counter = defs.find((d) => d['name'] === 'counter_flow');
    assert.equal(counter?.['resume_supported'], false);
    assert.equal('resume_schema' in (counter ?? {}), false);
    assert.deepEqual(counter?.['input_schema'], stack.catalog.resolve('counter_flow', 'v1')?.inputSchema);
  });

  test('lists at most 100 and says when it truncated', async () => {
    // 101 entries that differ only by name (registering 101 real flows costs seconds of schema compilation).
    const template = stack.catalog.resolve('counter_flow', 'v1');
    assert.ok(template);
    const many = Array.from({ length: 101 }, (_, i) => ({
      ...template,
      name: `flow_${String(100 - i).padStart(3, '0')}`,
    }));
    const catalog: RunToolsCatalog = { resolve: () => undefined, list: () => many };
    const value = await stack.ok(stack.tools(undefined, { catalog }), 'workflow_definition_list', {});
    const defs = value['definitions'] as JsonObject[];
    assert.equal(defs.length, 100);
    assert.equal(value['truncated'], true);
    assert.equal(defs[99]?.['name'], 'flow_099');
  });
});
