import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSchemaDocument, SchemaCompiler } from '../../src/core/index.js';

describe('JSON Schema 2020-12 compiler', () => {
  const compiler = new SchemaCompiler();
  const closed = compiler.compile({
    type: 'object',
    properties: { name: { type: 'string', maxLength: 8 } },
    required: ['name'],
    additionalProperties: false,
  });

  test('validation issues carry keyword and schema path, never the offending value', () => {
    const marker = 'PARTICIPANT-MARKER-42';
    const r = closed({ name: 'ok', [marker]: marker });
    assert.equal(r.ok, false);
    assert.ok(!JSON.stringify(r).includes(marker));
    if (!r.ok) assert.deepEqual(r.issues[0], { keyword: 'additionalProperties', schemaPath: '#/additionalProperties' });
  });

  test('inherited members never satisfy required (ownProperties)', () => {
    const needsToString = compiler.compile({ type: 'object', properties: { toString: {} }, required: ['toString'] });
    assert.equal(needsToString({}).ok, false);
  });

  test('schema documents are checked against the 2020-12 meta-schema and strict mode', () => {
    assert.equal(checkSchemaDocument({ type: 'object', additionalProperties: false }).ok, true);
    assert.equal(checkSchemaDocument({ type: 'objekt' }).ok, false);
    assert.equal(checkSchemaDocument({ type: 'object', unknownKeyword: true }).ok, false);
    assert.equal(checkSchemaDocument({ type: 'string', format: 'uuid' }).ok, false);
  });
});
