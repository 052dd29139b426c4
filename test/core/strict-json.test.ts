import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseStrictJson, parseStrictJsonBytes } from '../../src/core/index.js';

describe('strict JSON parsing', () => {
  test('refuses duplicate keys at every depth, including escaped spellings of the same key', () => {
    for (const text of [
      '{"a":1,"a":2}',
      '{"x":[{"b":1,"b":1}]}',
      '{"ab":1,"a\\u0062":2}',
      '{"a":{"k":1},"a":{"k":1}}',
    ]) {
      const r = parseStrictJson(text);
      assert.equal(r.ok, false, text);
    }
    assert.equal(parseStrictJson('{"a":{"b":1},"b":{"a":2}}').ok, true);
  });

  test('refuses lone surrogates, trailing values, empty input and over-limit documents without quoting them', () => {
    const secret = 'participant-secret-value';
    const cases = [`{"v":"${secret}\\ud800"}`, `{"v":"${secret}"} {}`, '', '   ', `{"v":"${secret}"`];
    for (const text of cases) {
      const r = parseStrictJson(text);
      assert.equal(r.ok, false);
      if (!r.ok) assert.ok(!r.reason.includes(secret));
    }
    assert.equal(parseStrictJson('[[[[1]]]]', { maxDepth: 3 }).ok, false);
    assert.equal(parseStrictJson('[[[1]]]', { maxDepth: 3 }).ok, true);
    assert.equal(parseStrictJson('"' + 'x'.repeat(100) + '"', { maxBytes: 50 }).ok, false);
    assert.equal(parseStrictJson('{"a":1,"b":2,"c":3}', { maxKeys: 2 }).ok, false);
  });

  test('decodes bytes fatally: invalid UTF-8 is refused', () => {
    assert.equal(parseStrictJsonBytes(Uint8Array.from([0x22, 0xff, 0x22])).ok, false);
    assert.deepEqual(parseStrictJsonBytes(Buffer.from('{"é":1}')), { ok: true, value: { é: 1 } });
  });

  test('refuses prototype keys and numbers beyond double range at any depth', () => {
    for (const text of ['{"__proto__":{"polluted":true}}', '{"a":[{"__proto__":1}]}', '{"a":{"\\u005f_proto__":1}}']) {
      assert.equal(parseStrictJson(text).ok, false, text);
    }
    for (const text of [
      '1e400',
      '{"a":[-1E+309]}',
      '{"n":' + '9'.repeat(400) + '}',
      '{"n":1' + '0'.repeat(300) + 'e9}', // neither a 309-digit run nor a 3-digit exponent, yet 1e309
      '[1' + '0'.repeat(250) + '.5e60]',
    ]) {
      assert.equal(parseStrictJson(text).ok, false, text);
    }
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(parseStrictJson('{"proto":1,"n":1e308,"m":1e-400}'), {
      ok: true,
      value: { proto: 1, n: 1e308, m: 0 },
    });
  });

  test('property: a number literal is refused exactly when it parses beyond double range', () => {
    const literal = fc
      .record({
        sign: fc.constantFrom('', '-'),
        int: fc.oneof(
          fc.constant('0'),
          fc.tuple(fc.integer({ min: 1, max: 9 }), fc.nat({ max: 330 })).map(([d, n]) => `${d}${'7'.repeat(n)}`),
        ),
        fraction: fc.option(fc.nat({ max: 400 }).map((n) => `.${'3'.repeat(n)}1`)),
        exponent: fc.option(
          fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat({ max: 420 }), fc.nat({ max: 3 })),
        ),
      })
      .map(
        ({ sign, int, fraction, exponent }) =>
          sign +
          int +
          (fraction ?? '') +
          (exponent === null ? '' : `${exponent[0]}${exponent[1]}${'0'.repeat(exponent[3])}${exponent[2]}`),
      );
    fc.assert(
      fc.property(literal, (text) => {
        const document = `{"n":[${text}]}`;
        const finite = Number.isFinite(Number(text));
        assert.equal(parseStrictJson(document).ok, finite, text);
      }),
      { numRuns: 1000 },
    );
  });

  test('property: agrees with JSON.parse on every document without duplicates or prototype keys', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 8 }).filter((v) => !JSON.stringify(v).includes('"__proto__"')),
        fc.boolean(),
        (value, pretty) => {
          const text = JSON.stringify(value, null, pretty ? 2 : undefined);
          const r = parseStrictJson(text);
          assert.ok(r.ok, text);
          assert.deepEqual(r.value, JSON.parse(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  test('property: any object text with a member repeated is refused', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2 }), (key, a, b) => {
        const k = JSON.stringify(key);
        const text = `{${k}:${JSON.stringify(a)},"~pad":0,${k}:${JSON.stringify(b)}}`;
        if (key === '~pad') return;
        assert.equal(parseStrictJson(text).ok, false);
      }),
      { numRuns: 300 },
    );
  });
});
