/** ASCII-only JSON text (core/ascii-json.ts) parses back to the same value, whatever characters it holds. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { asciiJson } from '../../src/core/index.js';

test('every character past U+007E is escaped, and the text parses back to the same value', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary' }), (value, text) => {
      for (const v of [value, { text }, [text, value]]) {
        const out = asciiJson(v);
        assert.ok(
          [...out].every((c) => c.charCodeAt(0) <= 0x7e),
          out,
        );
        assert.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(v)));
      }
    }),
    { numRuns: 500 },
  );
  assert.equal(asciiJson({ arrow: 'a → b', emoji: '😀' }), '{"arrow":"a \\u2192 b","emoji":"\\ud83d\\ude00"}');
});
