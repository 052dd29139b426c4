import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_CANONICAL_DEPTH, canonicalJson, freezeCanonicalFragment } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';

/** The text, or the error code, of a canonicaliser on `value`. */
function outcome(write: (v: unknown) => string, value: unknown): string {
  try {
    return `text ${write(value)}`;
  } catch (error) {
    return `error ${(error as { code?: string }).code ?? String(error)}`;
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

describe('canonical JSON with frozen fragments', () => {
  test('embedding a frozen fragment gives exactly the text of an unregistered copy, or the same refusal', () => {
    fc.assert(
      fc.property(tree, (value) => {
        assert.equal(outcome(canonicalJson, value), outcome(canonicalJson, structuredClone(value)));
      }),
      { numRuns: 400 },
    );
  });

  test('a fragment embedded too deep is refused like any over-deep value', () => {
    // The fragment's deepest array sits 10 levels below its root; the limit counts from the outermost value.
    const fragment = freezeCanonicalFragment({ a: nested(10, 1) } as JsonObject);
    const fits = nested(MAX_CANONICAL_DEPTH - 11, fragment);
    const tooDeep = nested(MAX_CANONICAL_DEPTH - 10, fragment);
    assert.equal(outcome(canonicalJson, fits), outcome(canonicalJson, structuredClone(fits)));
    assert.match(outcome(canonicalJson, fits), /^text /);
    assert.equal(outcome(canonicalJson, tooDeep), 'error invalid_json');
    assert.equal(outcome(canonicalJson, structuredClone(tooDeep)), 'error invalid_json');
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
    assert.equal(canonicalJson({ f: fragment }), canonicalJson(structuredClone({ f: fragment })));
  });
});
