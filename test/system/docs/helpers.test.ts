/** Properties of the docs checks' own parsers: abbreviated JSON and shell words. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { mismatches, parseAbbreviated } from './jsonc.js';
import { shellWords } from './markdown.js';

describe('abbreviated JSON', () => {
  test('a JSON document without … matches exactly the values equal to the one it spells', () => {
    const normal = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (value, other) => {
        const pattern = parseAbbreviated(JSON.stringify(value, null, 2));
        assert.deepEqual(mismatches(pattern, normal(value)), []);
        assert.equal(mismatches(pattern, normal(other)).length === 0, isDeepStrictEqual(normal(value), normal(other)));
      }),
      // A member named __proto__ once reached Object.prototype through the `special` lookup.
      { examples: [[JSON.parse('{"__proto__":""}') as fc.JsonValue, {}]] },
    );
  });

  test('… opens objects, arrays and strings, and stands for any value', () => {
    const pattern = parseAbbreviated('{ "a": [1, …], "b": "ab…", "c": …, … } // comment');
    assert.deepEqual(mismatches(pattern, { a: [1, 2, 3], b: 'abc', c: { x: 1 }, d: true }), []);
    assert.deepEqual(mismatches(pattern, { a: [2], b: 'abc', c: 1 }), ['$.a[0]: shown 1, got 2']);
    assert.deepEqual(mismatches(pattern, { a: [1], b: 'xbc', c: 1 }), ['$.b: shown "ab…", got "xbc"']);
    assert.deepEqual(mismatches(parseAbbreviated('{ "a": 1 }'), { a: 1, b: 2 }), [
      '$.b: returned, but not shown (and no …)',
    ]);
    assert.deepEqual(mismatches(parseAbbreviated('[1]'), [1, 2]), ['$: shown 1 elements, got 2']);
  });
});

describe('shellWords', () => {
  test('single-quoted words come back verbatim, whatever they hold', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string().filter((s) => !s.includes("'")),
          { maxLength: 6 },
        ),
        (words) => {
          const command = words.map((w) => `'${w}'`).join(' \\\n  ');
          assert.deepEqual(shellWords(command), words);
        },
      ),
    );
  });

  test('double quotes, backslashes and mixed quoting join into one word', () => {
    assert.deepEqual(shellWords(`a "b \\"c\\" d" e'f'"g" \\ h`), ['a', 'b "c" d', 'efg', ' h']);
    assert.throws(() => shellWords("it's"), /unbalanced single quote/);
  });
});
