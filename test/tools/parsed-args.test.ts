/**
 * `invokeParsed` judges parsed arguments exactly as `invoke` judges their RFC 8785 text: the same refusal (same words)
 * or the same arguments, for generated values and for every limit the text path enforces.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, SchemaCompiler } from '../../src/core/index.js';
import { checkParsedArguments, UNREPRESENTABLE_MESSAGE } from '../../src/tools/parsed-args.js';
import { ARGUMENT_LIMITS, compileArgumentDecoders } from '../../src/tools/strict-args.js';
import type { DecodeResult } from '../../src/tools/strict-args.js';
import { closedObject, uuidSchema } from '../../src/tools/schemas.js';
import { openStack, SESSION_A } from './harness.js';

const schema = closedObject(
  {
    run_id: uuidSchema('run'),
    reason: { type: 'string' },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    input: { type: 'object' },
  },
  ['run_id'],
);
const decoders = compileArgumentDecoders(schema, new SchemaCompiler(), {
  uuidFields: ['run_id'],
  maxBytes: { reason: 8 },
});
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** What `invoke` does with what the runs profile used to send it: canonical text, or its own refusal. */
function viaText(value: unknown): DecodeResult {
  let text: string;
  try {
    text = canonicalJson(value);
  } catch {
    return { ok: false, message: UNREPRESENTABLE_MESSAGE };
  }
  return decoders.fromText(text);
}

function viaValue(value: unknown): DecodeResult {
  const checked = checkParsedArguments(value);
  return checked.ok ? decoders.fromValue(checked.value) : { ok: false, message: checked.message };
}

/** Same verdict, same message, or the same arguments in the same key order. */
function assertSame(value: unknown): void {
  const text = viaText(value);
  const parsed = viaValue(value);
  if (!text.ok || !parsed.ok) {
    assert.deepEqual(parsed, text);
    return;
  }
  assert.deepEqual(Object.keys(parsed.args), Object.keys(text.args));
  assert.equal(canonicalJson(parsed.args), canonicalJson(text.args));
}

function nested(depth: number, leaf: unknown = 1): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
  return v;
}

describe('parsed arguments are judged as their canonical text', () => {
  test('generated argument objects', () => {
    const args = fc.record(
      {
        run_id: fc.oneof(fc.constant(ID), fc.constant(ID.toUpperCase()), fc.string()),
        reason: fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })),
        limit: fc.oneof(fc.integer(), fc.double()),
        input: fc.oneof(fc.object(), fc.jsonValue()),
        Run_Id: fc.string(),
        extra: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(args, (v) => assertSame(v)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (v) => assertSame(v)),
      { numRuns: 300 },
    );
  });

  test('values JSON cannot carry', () => {
    for (const bad of [
      { run_id: ID, input: { n: Number.POSITIVE_INFINITY } },
      { run_id: ID, input: { n: Number.NaN } },
      { run_id: ID, reason: '\ud800' },
      { run_id: ID, input: { '\udc00': 1 } },
      { run_id: ID, input: { when: new Date(0) } },
      { run_id: ID, input: { gone: undefined } },
      // eslint-disable-next-line no-sparse-arrays -- a hole has no JSON text
      { run_id: ID, input: { list: [1, , 3] } },
      { run_id: ID, input: nested(64) },
      undefined,
    ]) {
      assertSame(bad);
      assert.deepEqual(viaValue(bad), { ok: false, message: UNREPRESENTABLE_MESSAGE });
    }
  });

  test('nesting, members, prototype keys and size: the first refusal in text order wins', () => {
    assertSame({ run_id: ID, input: nested(31) });
    assertSame({ run_id: ID, input: nested(32) });
    assertSame({ run_id: ID, input: nested(40) });
    assertSame({ run_id: ID, input: nested(63) });
    const proto = JSON.parse('{"a":{"__proto__":{"x":1}},"b":[[[[1]]]]}') as unknown;
    assertSame({ run_id: ID, input: proto });
    assertSame({ run_id: ID, input: { a: nested(40), z: proto } });
    assertSame({ run_id: ID, input: { a: proto, z: nested(40) } });
    assertSame(JSON.parse(`{"__proto__":1,"run_id":"${ID}"}`));
    const many: Record<string, number> = {};
    for (let i = 0; i < 100_001; i++) many[`k${i}`] = i;
    assertSame({ run_id: ID, input: many });
    assertSame({ run_id: ID, input: { a: many, b: nested(40) } });
    const near = ARGUMENT_LIMITS.maxBytes - 200;
    for (const extra of [-2, -1, 0, 1, 2, 150, 250]) {
      assertSame({ run_id: ID, input: { s: 'x'.repeat(near + extra) } });
      assertSame({ run_id: ID, input: { s: 'é"\n'.repeat(Math.floor((near + extra) / 5)) } });
    }
    assertSame({ run_id: ID, input: { s: 'x'.repeat(ARGUMENT_LIMITS.maxBytes) }, extra: nested(40) });
  });

  test('top-level order and -0 are what the parsed text would give', () => {
    assertSame({ zeta: 1, alpha: 2, run_id: ID });
    assertSame({ limit: -0, run_id: ID });
    assertSame({ limit: null, reason: null, run_id: ID });
    assertSame([]);
    assertSame('text');
  });
});

describe('the bundle answers invokeParsed exactly as invoke', () => {
  test('for successes and refusals of every tool', async () => {
    const stack = await openStack();
    try {
      const tools = stack.tools(SESSION_A);
      const calls: [string, unknown][] = [
        ['workflow_definition_list', {}],
        ['workflow_run_list', { limit: 2 }],
        ['workflow_run_list', { limit: 0 }],
        ['workflow_run_get', { run_id: ID }],
        ['workflow_run_get', { Run_Id: ID }],
        ['workflow_run_history', { run_id: ID, after_revision: -0 }],
        ['workflow_run_cancel', { run_id: ID, reason: 'r' }],
        ['workflow_run_resume', { run_id: ID, resume: { n: Number.POSITIVE_INFINITY } }],
        ['workflow_run_start', { definition_name: 'nope', definition_version: 'v1', input: {} }],
        ['workflow_run_start', { definition_name: 'counter_flow', definition_version: 'v1', input: { count: 'x' } }],
      ];
      for (const [name, args] of calls) {
        const tool = tools.find((t) => t.name === name);
        assert.ok(tool?.invokeParsed !== undefined);
        let text: string | undefined;
        try {
          text = canonicalJson(args);
        } catch {
          text = undefined;
        }
        const parsed = await tool.invokeParsed(args);
        if (text === undefined) {
          assert.deepEqual(parsed, {
            ok: false,
            error: { code: 'invalid_arguments', message: UNREPRESENTABLE_MESSAGE },
          });
        } else {
          assert.deepEqual(parsed, await tool.invoke(text), name);
        }
      }
    } finally {
      await stack.close();
    }
  });
});
