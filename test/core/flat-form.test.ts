import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { SchemaCompiler, flatFieldOf, flatFormOf, readFlatAnswer, withDefaults } from '../../src/core/index.js';
import type { JsonObject, JsonValue } from '../../src/core/index.js';

const approval: JsonObject = {
  type: 'object',
  additionalProperties: false,
  required: ['approved'],
  properties: {
    approved: { type: 'boolean', description: 'Approve the release?' },
    note: { type: 'string', maxLength: 200 },
    channel: { type: 'string', enum: ['stable', 'beta'] },
    reviewers: { type: 'integer', minimum: 1, maximum: 5 },
    labels: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['a', 'b'] } },
  },
};

describe('flat forms', () => {
  test('a closed object of primitive fields becomes a form that says exactly what the schema says', () => {
    const form = flatFormOf(approval);
    assert.ok(form);
    assert.deepEqual(form.required, ['approved']);
    assert.deepEqual(form.properties['approved'], { type: 'boolean', description: 'Approve the release?' });
    assert.deepEqual(form.properties['channel'], {
      type: 'string',
      oneOf: [
        { const: 'stable', title: 'stable' },
        { const: 'beta', title: 'beta' },
      ],
    });
    assert.deepEqual(form.properties['labels'], {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'a' },
          { const: 'b', title: 'b' },
        ],
      },
    });
  });

  test('anything a form cannot say exactly is not a form', () => {
    const notFlat: JsonValue[] = [
      { ...approval, additionalProperties: true },
      { ...approval, properties: { ...(approval['properties'] as JsonObject), nested: { type: 'object' } } },
      { ...approval, properties: { x: { type: 'string', pattern: '^a' } } },
      { ...approval, properties: { x: { type: 'array', items: { type: 'string' } } } },
      { ...approval, properties: { x: { type: ['string', 'null'] } } },
      { ...approval, properties: { x: { $ref: '#/$defs/y' } } },
      { ...approval, properties: { x: { type: 'number', exclusiveMinimum: 0 } } },
      { ...approval, required: ['missing'] },
      { ...approval, allOf: [] },
      { type: 'object', additionalProperties: false, properties: {} },
      'not a schema',
    ];
    for (const schema of notFlat) assert.equal(flatFormOf(schema), undefined, JSON.stringify(schema));
    assert.equal(flatFieldOf({ type: 'string', format: 'regex' }), undefined);
  });

  test('answers are read strictly: known fields, required ones, each of its type', () => {
    const form = flatFormOf(approval)!;
    assert.deepEqual(readFlatAnswer(form, { approved: true, channel: 'beta' }), {
      ok: true,
      value: { approved: true, channel: 'beta' },
    });
    for (const bad of [
      {},
      { approved: 'yes' },
      { approved: true, extra: 1 },
      { approved: true, channel: 'alpha' },
      [],
      null,
    ]) {
      const read = readFlatAnswer(form, bad);
      assert.equal(read.ok, false, JSON.stringify(bad));
    }
    assert.equal(readFlatAnswer(form, { approved: true, reviewers: 2.5 }).ok, false);
    assert.equal(readFlatAnswer(form, { approved: true, labels: ['a', 'a'] }).ok, false);
  });

  test('proposed values become defaults only where the field accepts them', () => {
    const form = withDefaults(flatFormOf(approval)!, { approved: true, channel: 'nightly', note: 'ok' });
    assert.equal(form.properties['approved']?.default, true);
    assert.equal(form.properties['channel']?.default, undefined);
    assert.equal(form.properties['note']?.default, 'ok');
  });

  test('property: an answer the schema accepts is never refused by the form', () => {
    const compiler = new SchemaCompiler();
    const check = compiler.compile(approval);
    const answer = fc.record(
      {
        approved: fc.oneof(fc.boolean(), fc.string({ maxLength: 3 })),
        note: fc.string({ maxLength: 300 }),
        channel: fc.constantFrom('stable', 'beta', 'alpha'),
        reviewers: fc.oneof(fc.integer({ min: -2, max: 8 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
        labels: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 3 }),
      },
      { requiredKeys: [] },
    );
    const form = flatFormOf(approval)!;
    fc.assert(
      fc.property(answer, (value) => {
        if (check(value).ok) assert.equal(readFlatAnswer(form, value).ok, true, JSON.stringify(value));
      }),
      { numRuns: 500 },
    );
  });
});
