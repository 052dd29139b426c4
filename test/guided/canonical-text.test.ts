import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_CANONICAL_DEPTH, canonicalJson } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { freezeCanonicalFragment } from '../../src/guided/canonical-text.js';
import { canonicalText } from '../../src/guided/index.js';
import { sameAsClean } from '../../src/guided/checkpoint/same-json.js';

/** The text, or the error code, of a canonicaliser on `value`. */
function outcome(write: (v: unknown) => string, value: unknown): string {
  try {
    return `text ${write(value)}`;
  } catch (error) {
    return `error ${(error as { code?: string }).code ?? String(error)}`;
  }
}

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

/** JSON-like trees (with a few values JSON cannot carry), some objects registered as frozen fragments. */
const tree = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(anyString, tie('node'), { maxKeys: 4 }),
    fc.dictionary(fc.string(), tie('node'), { maxKeys: 4 }).map((o) => {
      try {
        return freezeCanonicalFragment(o as JsonObject);
      } catch {
        return o; // not canonicalisable: stays an ordinary object
      }
    }),
  ),
})).node;

function nested(depth: number, inner: unknown): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('canonical text with frozen fragments', () => {
  test('gives exactly canonicalJson: the same text, or the same refusal', () => {
    fc.assert(
      fc.property(tree, (value) => {
        assert.equal(outcome(canonicalText, value), outcome(canonicalJson, value));
      }),
      { numRuns: 400 },
    );
  });

  test('a fragment embedded too deep is refused like any over-deep value', () => {
    // The fragment's deepest array sits 10 levels below its root; the limit counts from the outermost value.
    const fragment = freezeCanonicalFragment({ a: nested(10, 1) } as JsonObject);
    const fits = nested(MAX_CANONICAL_DEPTH - 11, fragment);
    const tooDeep = nested(MAX_CANONICAL_DEPTH - 10, fragment);
    assert.equal(outcome(canonicalText, fits), outcome(canonicalJson, fits));
    assert.match(outcome(canonicalText, fits), /^text /);
    assert.equal(outcome(canonicalText, tooDeep), 'error invalid_json');
    assert.equal(outcome(canonicalJson, tooDeep), 'error invalid_json');
  });

  test('a registered fragment cannot change after its text was taken', () => {
    const fragment = freezeCanonicalFragment({ list: [1, { deep: 'x' }], name: 'a' });
    const deep = (fragment['list'] as JsonObject[])[1] as JsonObject;
    assert.throws(() => {
      fragment['name'] = 'b';
    }, TypeError);
    assert.throws(() => {
      deep['deep'] = 'y';
    }, TypeError);
    assert.equal(canonicalText({ f: fragment }), canonicalJson({ f: fragment }));
  });
});

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
