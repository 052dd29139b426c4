import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { freezeCanonicalFragment, memoizeFrozenMembers, SchemaCompiler } from '../../src/core/index.js';
import type { CompiledSchema, JsonObject } from '../../src/core/index.js';

const compiler = new SchemaCompiler({ unicodeLength: false, inlineRefs: false });

/** A result schema shaped like the guided contracts: a closed root whose members reference shared `$defs`. */
const RESULT: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'step'],
  properties: {
    status: { type: 'string', enum: ['active', 'completed'] },
    step: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/step' }] },
    note: { type: 'string', maxLength: 8 },
  },
  $defs: {
    step: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'parts'],
      properties: {
        id: { type: 'string', pattern: '^[a-z]+$' },
        parts: { type: 'array', maxItems: 3, items: { type: 'integer' } },
      },
    },
  },
};

/** The full check and a memoizing one, with a counter of how often the full check ran. */
function checks(schema: JsonObject = RESULT): { full: CompiledSchema; memo: CompiledSchema; fullCalls: () => number } {
  const compiled = compiler.compile(schema);
  let calls = 0;
  const full: CompiledSchema = (value) => {
    calls++;
    return compiled(value);
  };
  return { full: compiled, memo: memoizeFrozenMembers(schema, compiler, full), fullCalls: () => calls };
}

describe('memoizeFrozenMembers', () => {
  test('validates a frozen fragment once, then checks only the other members', () => {
    const { memo, fullCalls } = checks();
    const step = freezeCanonicalFragment({ id: 'interview', parts: [1, 2] });
    assert.deepEqual(memo({ status: 'active', step }), { ok: true });
    assert.deepEqual(memo({ status: 'completed', step, note: 'short' }), { ok: true });
    assert.equal(fullCalls(), 0, 'a value with a frozen member never needs the whole-schema check when it passes');
    // The remembered fragment does not vouch for its neighbours.
    assert.equal(memo({ status: 'paused', step }).ok, false);
    assert.equal(memo({ status: 'active', step, note: 'far too long' }).ok, false);
    assert.equal(memo({ status: 'active', step, extra: 1 }).ok, false);
    assert.equal(memo({ step }).ok, false);
    // A non-enumerable own member is still checked against its subschema, as the compiled schema does.
    const hidden = { status: 'active', step };
    Object.defineProperty(hidden, 'note', { value: 'far too long for the limit', enumerable: false });
    assert.equal(memo(hidden).ok, false);
    // Like the compiled schema (ownProperties), an inherited member does not satisfy `required`.
    assert.equal(memo(Object.assign(Object.create({ status: 'active' }) as object, { step })).ok, false);
  });

  test('a refusal is answered by the whole-schema check, with its issue path', () => {
    const { full, memo, fullCalls } = checks();
    const step = freezeCanonicalFragment({ id: 'interview', parts: [1, 2] });
    const bad = { status: 'paused', step };
    assert.deepEqual(memo(bad), full(bad));
    assert.equal(fullCalls(), 1);
  });

  test('a frozen fragment that breaks the schema is refused every time, never remembered', () => {
    const { memo } = checks();
    const step = freezeCanonicalFragment({ id: 'Not-Lowercase', parts: [1] });
    assert.equal(memo({ status: 'active', step }).ok, false);
    assert.equal(memo({ status: 'active', step }).ok, false);
  });

  test('an unfrozen copy of a remembered fragment is checked in full', () => {
    const { memo } = checks();
    const step = freezeCanonicalFragment({ id: 'interview', parts: [1, 2] });
    assert.equal(memo({ status: 'active', step }).ok, true);
    const copy = { ...step, parts: [1, 2, 3, 4] };
    assert.equal(memo({ status: 'active', step: copy }).ok, false);
  });

  test('a fragment remembered under one member does not pass under another', () => {
    const schema: JsonObject = {
      ...RESULT,
      properties: {
        ...(RESULT['properties'] as JsonObject),
        other: { type: 'object', required: ['x'], properties: { x: {} } },
      },
    };
    const { memo } = checks(schema);
    const step = freezeCanonicalFragment({ id: 'interview', parts: [] });
    assert.equal(memo({ status: 'active', step }).ok, true);
    assert.equal(memo({ status: 'active', step, other: step }).ok, false);
  });

  test('returns the whole-schema check itself for roots that are not a plain conjunction over members', () => {
    const compiled = compiler.compile(RESULT);
    const open: JsonObject = { ...RESULT, additionalProperties: { type: 'string' } };
    const conditional: JsonObject = { ...RESULT, if: { required: ['note'] }, then: { required: ['status'] } };
    const recursive: JsonObject = {
      ...RESULT,
      properties: { ...(RESULT['properties'] as JsonObject), child: { $ref: '#' } },
    };
    for (const schema of [open, conditional, recursive]) {
      assert.equal(memoizeFrozenMembers(schema, compiler, compiled), compiled);
    }
  });

  test('property: the memoizing check and the whole-schema check agree on every value', () => {
    const steps = [
      { id: 'interview', parts: [1, 2] },
      { id: 'decide', parts: [] },
      { id: 'Bad', parts: [1] },
      { id: 'long', parts: [1, 2, 3, 4] },
      { id: 'extra', parts: [], more: true },
    ].map((s) => freezeCanonicalFragment(s));
    const stepValue = fc.oneof(
      fc.constantFrom(...steps),
      fc.constant(null),
      fc.record({ id: fc.string({ maxLength: 4 }), parts: fc.array(fc.integer(), { maxLength: 4 }) }),
      fc.anything(),
    );
    const result = fc.record(
      {
        status: fc.oneof(fc.constantFrom('active', 'completed', 'paused'), fc.anything()),
        step: stepValue,
        note: fc.string({ maxLength: 10 }),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const { full, memo } = checks();
    fc.assert(
      fc.property(result, (value) => {
        assert.deepEqual(memo(value), full(value));
      }),
      { numRuns: 2000 },
    );
  });
});
