import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSchemaDocument } from '../../../src/core/index.js';
import type { JsonObject, JsonValue } from '../../../src/core/index.js';
import { GUIDED_SCHEMA_RESOURCES, GUIDED_TOOL_CONTRACTS } from '../../../src/guided/index.js';
import { COPIED_UNCHANGED } from '../../../src/guided/contracts/tools.js';
import { PROTOCOL_SCHEMA_IDS } from '../../../src/registry/reserved-schema-ids.js';

/** Every sub-schema of a schema document, with its JSON pointer. */
function* subschemas(schema: JsonValue, path = '#'): Generator<[string, JsonObject]> {
  if (Array.isArray(schema)) {
    for (const [i, item] of schema.entries()) yield* subschemas(item, `${path}/${i}`);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  yield [path, schema];
  for (const [key, value] of Object.entries(schema)) {
    // `if` holds a condition (a bare type test), not a shape a value must have.
    if (key === 'enum' || key === 'const' || key === 'required' || key === 'if') continue;
    if (key === 'properties' || key === '$defs') {
      for (const [name, child] of Object.entries(value as JsonObject))
        yield* subschemas(child, `${path}/${key}/${name}`);
    } else if (typeof value === 'object') {
      yield* subschemas(value, `${path}/${key}`);
    }
  }
}

describe('guided tool contracts', () => {
  test('exactly the four tools, read-only, closed-world, with object roots', () => {
    assert.deepEqual(
      GUIDED_TOOL_CONTRACTS.map((c) => c.name),
      [
        'rimthan.start_workflow',
        'rimthan.continue_workflow',
        'rimthan.prepare_step_validation',
        'rimthan.submit_step_validation',
      ],
    );
    for (const c of GUIDED_TOOL_CONTRACTS) {
      assert.ok(c.title.length > 0 && c.description.length > 0);
      assert.equal(c.inputSchema['type'], 'object');
      assert.equal(c.outputSchema['type'], 'object');
      assert.equal(c.annotations.readOnlyHint, true);
      assert.equal(c.annotations.destructiveHint, false);
      assert.equal(c.annotations.openWorldHint, false);
    }
    assert.deepEqual(
      GUIDED_TOOL_CONTRACTS.map((c) => c.annotations.idempotentHint),
      [false, false, true, false],
    );
  });

  test('every contract schema passes the 2020-12 meta-schema and compiles in strict mode', () => {
    for (const c of GUIDED_TOOL_CONTRACTS) {
      assert.deepEqual(checkSchemaDocument(c.inputSchema), { ok: true }, `${c.name} input`);
      assert.deepEqual(checkSchemaDocument(c.outputSchema), { ok: true }, `${c.name} output`);
    }
    for (const r of GUIDED_SCHEMA_RESOURCES) assert.deepEqual(checkSchemaDocument(r.schema), { ok: true }, r.id);
  });

  test('every published protocol schema id is reserved, so no release schema can take its resource URI', () => {
    const unreserved = GUIDED_SCHEMA_RESOURCES.map((r) => r.id).filter((id) => !PROTOCOL_SCHEMA_IDS.has(id));
    assert.deepEqual(unreserved, []);
  });

  test('every object is closed and every string, array and map is bounded', () => {
    for (const c of GUIDED_TOOL_CONTRACTS) {
      for (const schema of [c.inputSchema, c.outputSchema]) {
        for (const [path, s] of subschemas(schema)) {
          const where = `${c.name} ${path}`;
          if (s['type'] === 'object') {
            if (s['properties'] !== undefined) assert.equal(s['additionalProperties'], false, `${where} is closed`);
            else assert.equal(typeof s['maxProperties'], 'number', `${where} map is bounded`);
          }
          if (s['type'] === 'string' && s['enum'] === undefined) {
            assert.equal(typeof s['maxLength'], 'number', `${where} string is bounded`);
          }
          if (s['type'] === 'array') assert.equal(typeof s['maxItems'], 'number', `${where} array is bounded`);
        }
      }
    }
  });

  test('every tool schema and shared shape is published once, and every document embeds the same objects', () => {
    const ids = GUIDED_SCHEMA_RESOURCES.map((r) => `${r.id}@${r.version}`);
    assert.equal(new Set(ids).size, ids.length);
    const byId = new Map(GUIDED_SCHEMA_RESOURCES.map((r) => [r.id, r.schema]));
    for (const name of ['start-workflow', 'continue-workflow', 'prepare-step-validation', 'submit-step-validation']) {
      const contract = GUIDED_TOOL_CONTRACTS.find((c) => c.name === `rimthan.${name.replaceAll('-', '_')}`);
      assert.equal(byId.get(`rimthan.${name}.input`), contract?.inputSchema);
      assert.equal(byId.get(`rimthan.${name}.output`), contract?.outputSchema);
    }
    // One object per named shape, whichever document embeds it; a published shape's served document is that object
    // plus only dialect, title and its own `$defs`.
    const seen = new Map<string, JsonObject>();
    for (const r of GUIDED_SCHEMA_RESOURCES) {
      for (const [name, def] of Object.entries((r.schema['$defs'] ?? {}) as JsonObject)) {
        const first = seen.get(name) ?? (def as JsonObject);
        seen.set(name, first);
        assert.equal(def, first, `${r.id} embeds the one ${name}`);
        assert.equal(def['$schema'], undefined, `${name} carries no $schema when embedded`);
        assert.equal(def['title'], undefined, `${name} carries no title when embedded`);
      }
    }
    for (const r of GUIDED_SCHEMA_RESOURCES) {
      const embedded = seen.get(r.id);
      if (embedded === undefined) continue;
      const { $schema, title, $defs, ...body } = r.schema;
      assert.equal($schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(typeof title, 'string');
      assert.deepEqual(body, embedded, `the served ${r.id} is the embedded shape`);
      for (const [name, def] of Object.entries(($defs ?? {}) as JsonObject)) assert.equal(def, seen.get(name));
    }
    for (const shared of [
      'checkpoint-envelope',
      'confirmed-state-projection',
      'host-declaration',
      'artifact',
      'host-attestation',
      'output-attestation',
      'validation-bundle',
      'validator-report',
    ]) {
      assert.ok(byId.has(shared), shared);
    }
  });

  test('every property of the four input schemas tells a model what to send', () => {
    // Inside a shape the harness copies back unchanged, the argument holding it says so (checked below).
    const copied = (path: string): boolean => COPIED_UNCHANGED.some((name) => path.startsWith(`#/$defs/${name}/`));
    for (const c of GUIDED_TOOL_CONTRACTS) {
      for (const [name, property] of Object.entries(c.inputSchema['properties'] as JsonObject)) {
        const target = ((property as JsonObject)['$ref'] as string | undefined)?.replace('#/$defs/', '');
        if (target !== undefined && COPIED_UNCHANGED.includes(target)) {
          assert.match((property as JsonObject)['description'] as string, /unchanged/, `${c.name} ${name}`);
        }
      }
      for (const [path, s] of subschemas(c.inputSchema)) {
        const properties = s['properties'] as JsonObject | undefined;
        if (properties === undefined || copied(`${path}/`)) continue;
        for (const [name, property] of Object.entries(properties)) {
          const description = (property as JsonObject)['description'];
          assert.equal(typeof description, 'string', `${c.name} ${path}/properties/${name} has a description`);
          assert.ok((description as string).length <= 140, `${c.name} ${path}/properties/${name}: one short line`);
          assert.doesNotMatch(description as string, /\n/);
        }
      }
    }
  });

  test('as the workflow-engine profile checks them, a refusal names the keyword with its full schema path', async () => {
    const { compileWorkflowEngineContracts } = await import('../../../src/mcp/workflow-engine/profile.js');
    const cont = compileWorkflowEngineContracts().find((c) => c.name === 'rimthan.continue_workflow');
    assert.ok(cont);
    const projection = { state: {}, confirmations: {} };
    assert.deepEqual(cont.checkInput({ checkpoint: { token: 'a.b' }, confirmed_state: projection }), {
      ok: false,
      issues: [{ keyword: 'required', schemaPath: '#/properties/checkpoint/required' }],
    });
    assert.deepEqual(cont.checkInput({ checkpoint: 5, confirmed_state: projection }), {
      ok: false,
      issues: [{ keyword: 'type', schemaPath: '#/properties/checkpoint/type' }],
    });
    assert.equal(cont.checkOutput({ error: { code: 'x', message: 'y' } }).ok, false);
  });

  test('the closed contracts refuse unknown fields and oversized values', async () => {
    const { SchemaCompiler } = await import('../../../src/core/index.js');
    const start = new SchemaCompiler().compile(GUIDED_TOOL_CONTRACTS[0]?.inputSchema ?? {});
    const base: JsonObject = {
      workflow: 'research',
      confirmed_state: { state: {}, confirmations: {} },
      host: {
        harness: 'codex',
        adapter: { id: 'codex-adapter', version: '1.1.0' },
        host_capabilities: ['mcp.tools'],
        validator_capabilities: [],
        repository_policy: { conflict: false },
      },
    };
    assert.deepEqual(start(base), { ok: true });
    assert.equal(start({ ...base, extra: true }).ok, false);
    assert.equal(start({ ...base, host: { ...(base['host'] as JsonObject), harness: 'vim' } }).ok, false);
    assert.equal(
      start({ ...base, confirmed_state: { state: { objective: 'x'.repeat(20_000) }, confirmations: {} } }).ok,
      false,
    );
  });
});
