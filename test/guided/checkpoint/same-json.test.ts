import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../../../src/core/index.js';
import { sameAsClean } from '../../../src/guided/checkpoint/same-json.js';

function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

/** Any UTF-16 code unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const anyString = fc.oneof(fc.string(), fc.string({ unit: anyUnit, maxLength: 6 }));
const leaf = fc.oneof(
  anyString,
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(-0),
);

describe('envelope and bundle comparison against a signed body', () => {
  const clean = fc.jsonValue().filter((v) => sameJson(v, v));

  test('equals the canonical-text comparison for copies, edits and foreign values', () => {
    const edit = (v: unknown, replacement: unknown): unknown => {
      if (Array.isArray(v) && v.length > 0) return [...v.slice(1), replacement];
      if (typeof v === 'object' && v !== null) return { ...v, extra: replacement };
      return replacement;
    };
    class Boxed {
      constructor(readonly v: unknown) {}
    }
    fc.assert(
      fc.property(clean, leaf, fc.jsonValue(), fc.nat(5), (value, replacement, other, pick) => {
        const candidates: unknown[] = [
          structuredClone(value),
          edit(value, replacement),
          other,
          new Boxed(value),
          typeof value === 'object' && value !== null && !Array.isArray(value)
            ? Object.assign(Object.create({ inherited: 1 }) as object, value)
            : [value],
        ];
        const candidate = candidates[pick % candidates.length];
        assert.equal(sameAsClean(candidate, value as never), sameJson(candidate, value));
      }),
      { numRuns: 500 },
    );
  });

  test('a lone surrogate, a non-finite number or an undefined member never equals', () => {
    assert.equal(sameAsClean({ a: 'x' }, { a: 'x' }), true);
    assert.equal(sameAsClean({ a: '\ud800' }, { a: 'x' }), false);
    assert.equal(sameAsClean({ a: Number.NaN }, { a: 1 }), false);
    assert.equal(sameAsClean({ a: undefined }, { a: null }), false);
    assert.equal(sameAsClean({ a: 1, b: undefined }, { a: 1 }), false);
    assert.equal(sameAsClean([1, 2], { 0: 1, 1: 2 }), false);
    assert.equal(sameAsClean(-0, 0), true);
  });
});
