import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SchemaCompiler } from '../../src/core/index.js';
import { ARGUMENT_LIMITS, compileArgumentDecoder, parseUuid } from '../../src/tools/strict-args.js';
import { closedObject, uuidSchema } from '../../src/tools/schemas.js';

const schema = closedObject(
  { run_id: uuidSchema('run'), reason: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
  ['run_id'],
);
const decode = compileArgumentDecoder(schema, new SchemaCompiler(), {
  uuidFields: ['run_id'],
  maxBytes: { reason: 8 },
});
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

function refused(text: string): string {
  const result = decode(text);
  assert.equal(result.ok, false, `expected refusal of ${text.slice(0, 80)}`);
  return result.ok ? '' : result.message;
}

describe('strict argument decoding', () => {
  test('accepts a well-formed closed object and lowercases the UUID', () => {
    const result = decode(JSON.stringify({ run_id: ID.toUpperCase(), limit: 3 }));
    assert.deepEqual(result, { ok: true, args: { run_id: ID, limit: 3 } });
  });

  test('refuses an unknown field', () => {
    assert.match(refused(JSON.stringify({ run_id: ID, extra: 1 })), /unknown argument "extra"/);
  });

  test('refuses a field name in another letter case and points to the real name', () => {
    assert.match(refused(JSON.stringify({ Run_ID: ID })), /case-sensitive.*"run_id"/);
  });

  test('refuses duplicate keys instead of keeping the last', () => {
    refused(`{"run_id":"${ID}","run_id":"${ID}"}`);
  });

  test('refuses null for an optional field instead of treating it as absent', () => {
    assert.match(refused(JSON.stringify({ run_id: ID, reason: null })), /must not be null/);
  });

  test('refuses a trailing JSON value, empty input and non-object documents', () => {
    refused(`{"run_id":"${ID}"} {}`);
    refused(`{"run_id":"${ID}"}x`);
    refused('');
    refused('   ');
    refused('[]');
    refused('"text"');
  });

  test('refuses a missing required field and a wrong type, naming only the schema rule', () => {
    assert.match(refused('{}'), /missing required argument "run_id"/);
    const message = refused(JSON.stringify({ run_id: ID, limit: 'SECRET-VALUE' }));
    assert.match(message, /argument "limit".*type at #\/properties\/limit\/type/);
    assert.doesNotMatch(message, /SECRET-VALUE/);
  });

  test('refuses documents over 256 KiB and a field value nesting deeper than 32', () => {
    const big = JSON.stringify({ run_id: ID, reason: 'x'.repeat(ARGUMENT_LIMITS.maxBytes) });
    assert.match(refused(big), /size limit/);
    const deep = `{"run_id":"${ID}","reason":${'['.repeat(33)}${']'.repeat(33)}}`;
    assert.match(refused(deep), /depth/);
  });

  test('applies byte limits in UTF-8 bytes, not characters', () => {
    assert.equal(decode(JSON.stringify({ run_id: ID, reason: 'abcdefgh' })).ok, true);
    assert.match(refused(JSON.stringify({ run_id: ID, reason: 'ééééé' })), /exceeds 8 bytes/);
  });

  test('refuses the all-zero UUID and malformed UUIDs', () => {
    assert.match(refused(JSON.stringify({ run_id: '00000000-0000-0000-0000-000000000000' })), /nonzero UUID/);
    refused(JSON.stringify({ run_id: ID.replaceAll('-', '') }));
    refused(JSON.stringify({ run_id: `{${ID}}` }));
    refused(JSON.stringify({ run_id: ID.slice(0, 35) + 'g' }));
  });
});

describe('parseUuid', () => {
  test('any mix of letter case parses to the same lowercase UUID', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }), (id, upper) => {
        const mixed = [...id].map((c, i) => (upper[i] === true ? c.toUpperCase() : c)).join('');
        assert.equal(parseUuid(mixed), id === '00000000-0000-0000-0000-000000000000' ? undefined : id.toLowerCase());
      }),
    );
  });

  test('rejects hyphens in the wrong places and wrong lengths', () => {
    assert.equal(parseUuid('0f8fad5bd-9cb-469f-a165-70867728950e'), undefined);
    assert.equal(parseUuid(`${ID}0`), undefined);
    assert.equal(parseUuid('00000000-0000-0000-0000-000000000000'), undefined);
    assert.equal(parseUuid(ID.toUpperCase()), ID);
  });
});
