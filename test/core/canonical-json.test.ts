import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { canonicalJson, digestJson, parseStrictJson, RimthanError } from '../../src/core/index.js';
import { canonicalJsonWithMembers } from '../../src/core/canonical-json.js';

/** JSON values the strict parser accepts: fast-check also generates `__proto__` keys, which it refuses by design. */
function acceptedJson(maxDepth: number) {
  return fc.jsonValue({ maxDepth }).filter((value) => !JSON.stringify(value).includes('"__proto__"'));
}

describe('RFC 8785 canonical JSON', () => {
  test('sorts keys by UTF-16 code units and formats numbers the ECMAScript way (RFC 8785 examples)', () => {
    // From RFC 8785 §3.2.3 (sorting) and Appendix B (numbers).
    const sorted = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    assert.equal(
      canonicalJson(sorted),
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    const numbers: [number, string][] = [
      [0, '0'],
      [-0, '0'],
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [333333333.3333333, '333333333.3333333'],
      [9007199254740991, '9007199254740991'],
      [0.000001, '0.000001'],
      [-1.5e-300, '-1.5e-300'],
    ];
    for (const [n, text] of numbers) assert.equal(canonicalJson(n), text);
    assert.equal(
      canonicalJson({
        numbers: [333333333.3333333, 1e30, 4.5, 0.002, 1e-27],
        string: '\u20ac$\u000f\nA\'B"\\\\"/',
        literals: [null, true, false],
      }),
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  test('refuses values JSON cannot carry faithfully', () => {
    for (const bad of [NaN, Infinity, '\ud800', { a: undefined }, [1n], new Date(0), () => 1]) {
      assert.throws(
        () => canonicalJson(bad),
        (e: unknown) => e instanceof RimthanError && e.code === 'invalid_json',
      );
    }
    let deep: unknown = 1;
    for (let i = 0; i < 65; i++) deep = [deep];
    assert.throws(() => canonicalJson(deep), RimthanError);
  });

  test('property: canonical text parses back to an equal value and is a fixed point', () => {
    fc.assert(
      fc.property(acceptedJson(6), (value) => {
        const text = canonicalJson(value);
        const parsed = parseStrictJson(text);
        assert.ok(parsed.ok);
        assert.equal(canonicalJson(parsed.value), text);
        assert.deepEqual(parsed.value, JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  test('property: key order and whitespace never change the digest', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        assert.equal(digestJson(record), digestJson(reversed));
        assert.equal(digestJson(record), digestJson(JSON.parse(JSON.stringify(record, null, 2))));
      }),
      { numRuns: 200 },
    );
  });

  test('property: adding members while writing equals writing the merged object, and a shared key is refused', () => {
    const record = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
    fc.assert(
      fc.property(record, record, (base, extra) => {
        const shared = Object.keys(extra).some((k) => Object.prototype.hasOwnProperty.call(base, k));
        if (shared) {
          assert.throws(() => canonicalJsonWithMembers(base, extra), RimthanError);
        } else {
          assert.equal(canonicalJsonWithMembers(base, extra), canonicalJson({ ...base, ...extra }));
        }
      }),
      { numRuns: 300 },
    );
  });
});
