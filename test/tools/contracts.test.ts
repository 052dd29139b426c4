import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSchemaDocument, isRimthanError } from '../../src/core/index.js';
import type { JsonObject, JsonValue } from '../../src/core/index.js';
import { testCatalog } from '../runs/fixtures/test-flows.js';
import type { SessionController } from '../../src/runs/index.js';
import { createRunTools, RunToolName } from '../../src/tools/index.js';
import type { RunTool, RunToolsConfig } from '../../src/tools/index.js';
import { openStack, SESSION_A } from './harness.js';
import type { Stack } from './harness.js';

const ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** Minimal valid arguments per tool (the unknown-field cases add one field to these). */
const VALID: Record<string, JsonObject> = {
  workflow_definition_list: {},
  workflow_run_start: { definition_name: 'counter_flow', definition_version: 'v1', input: { count: 1 } },
  workflow_run_get: { run_id: ID },
  workflow_run_list: {},
  workflow_run_resume: { run_id: ID, resume: {} },
  workflow_run_cancel: { run_id: ID },
  workflow_run_history: { run_id: ID },
};
/** One optional field per tool, for the null-is-not-absent case. */
const OPTIONAL: Record<string, string | undefined> = {
  workflow_run_start: 'parent_run_id',
  workflow_run_list: 'limit',
  workflow_run_cancel: 'reason',
  workflow_run_history: 'after_revision',
};

function objectSchemas(schema: JsonValue, out: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(schema)) schema.forEach((s) => objectSchemas(s, out));
  else if (schema !== null && typeof schema === 'object') {
    if (schema['type'] === 'object' && schema['properties'] !== undefined) out.push(schema);
    Object.values(schema).forEach((s) => objectSchemas(s, out));
  }
  return out;
}

describe('run tool contracts', () => {
  let stack: Stack;
  let tools: RunTool[];
  before(async () => {
    stack = await openStack();
    tools = stack.tools();
  });
  after(() => stack.close());

  test('the bundle holds the seven tools, found by their public names', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(RunToolName).sort());
  });

  test('every schema is a closed JSON Schema 2020-12 object', () => {
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        assert.deepEqual(checkSchemaDocument(schema), { ok: true }, tool.name);
        assert.equal(schema['type'], 'object', tool.name);
        for (const object of objectSchemas(schema)) assert.equal(object['additionalProperties'], false, tool.name);
      }
      assert.equal(tool.inputSchema['additionalProperties'], false);
    }
  });

  test('descriptions are one sentence of at most 256 bytes', () => {
    for (const tool of tools) {
      assert.ok(Buffer.byteLength(tool.description) <= 256, tool.name);
      assert.match(tool.description, /^[A-Z][^]*\.$/, tool.name);
      assert.doesNotMatch(tool.description.slice(0, -1), /[.!?](\s|$)/, `${tool.name} has more than one sentence`);
    }
  });

  test('annotations state every hint honestly', () => {
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['workflow_definition_list', 'workflow_run_get', 'workflow_run_list', 'workflow_run_history']) {
      assert.equal(byName.get(name as RunToolName)?.readOnlyHint, true, name);
    }
    assert.equal(byName.get(RunToolName.RunCancel)?.destructiveHint, true);
    assert.equal(byName.get(RunToolName.RunStart)?.readOnlyHint, false);
    for (const tool of tools) {
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof tool.annotations[hint], 'boolean', `${tool.name} ${hint}`);
      }
    }
  });

  for (const [name, valid] of Object.entries(VALID)) {
    test(`${name} refuses malformed argument documents before touching anything`, async () => {
      const text = JSON.stringify(valid);
      const cases: [string, string][] = [
        ['unknown field', JSON.stringify({ ...valid, surprise: 1 })],
        ['trailing value', `${text} {}`],
        ['empty input', ''],
        ['array', '[]'],
        ['duplicate key', text === '{}' ? '{"a":1,"a":1}' : `${text.slice(0, -1)},${text.slice(1)}`],
      ];
      const first = Object.keys(valid)[0];
      if (first !== undefined) {
        const wrongCase = JSON.stringify({ ...valid, [first]: undefined, [first.toUpperCase()]: valid[first] });
        cases.push(['wrong-case field', wrongCase]);
      }
      const optional = OPTIONAL[name];
      if (optional !== undefined) cases.push(['null optional', JSON.stringify({ ...valid, [optional]: null })]);
      const before = await stack.store.listRuns(SESSION_A, { limit: 100 });
      for (const [label, args] of cases) {
        const message = await stack.fails(tools, name, args, 'invalid_arguments');
        assert.ok(message.length > 0, label);
      }
      assert.deepEqual(await stack.store.listRuns(SESSION_A, { limit: 100 }), before, 'nothing was created');
    });
  }

  test('IDs must be nonzero UUIDs', async () => {
    await stack.fails(
      tools,
      'workflow_run_get',
      { run_id: '00000000-0000-0000-0000-000000000000' },
      'invalid_arguments',
    );
    await stack.fails(tools, 'workflow_run_get', { run_id: 'not-a-uuid' }, 'invalid_arguments');
    await stack.fails(tools, 'workflow_run_get', { run_id: ID.toUpperCase() }, 'not_found');
  });
});

describe('bundle configuration fails closed', () => {
  const catalog = testCatalog();
  let stack: Stack;
  before(async () => {
    stack = await openStack();
  });
  after(() => stack.close());

  function refused(config: Partial<RunToolsConfig>, pattern: RegExp): void {
    assert.throws(
      () => createRunTools(config as RunToolsConfig),
      (e: unknown) => isRimthanError(e) && e.code === 'invalid_config' && pattern.test(e.message),
    );
  }

  test('without session, catalog, store or a capable supervisor', () => {
    const supervisor = stack.supervisor.forSession(SESSION_A);
    const base = { sessionId: SESSION_A, catalog, store: stack.store, supervisor };
    assert.equal(createRunTools(base).length, 7);
    refused({ ...base, sessionId: '' }, /session/);
    refused({ ...base, catalog: undefined as never }, /catalog/);
    refused({ ...base, store: undefined as never }, /store/);
    const noStart = {
      sessionId: SESSION_A,
      history: supervisor.history.bind(supervisor),
    } as unknown as SessionController;
    refused({ ...base, supervisor: noStart }, /start/);
    const noHistory = {
      sessionId: SESSION_A,
      start: supervisor.start.bind(supervisor),
    } as unknown as SessionController;
    refused({ ...base, supervisor: noHistory }, /history/);
  });

  test('when the supervisor serves another session', () => {
    const other = stack.supervisor.forSession('session-other');
    refused({ sessionId: SESSION_A, catalog, store: stack.store, supervisor: other }, /different session/);
  });
});
