/**
 * The shipped-schema list (src/core/shipped-schemas.ts) is what lets a start skip the document check of Rimthan's own
 * schemas and compile them on first use: it must name exactly the documents Rimthan ships, and each of them must pass
 * the full check and compile under every compiler option set, or a start could serve a contract nobody checked.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkSchemaDocument, SchemaCompiler, warmDeferredSchemas } from '../../src/core/index.js';
import { verifySchemaDocument } from '../../src/core/schema.js';
import { SHIPPED_SCHEMA_DIGESTS } from '../../src/core/shipped-schemas.js';
import { shippedSchemaDigests, shippedSchemas } from '../support/shipped-schemas.js';

const OPTION_SETS = [
  { unicodeLength: true, inlineRefs: true },
  { unicodeLength: false, inlineRefs: true },
  { unicodeLength: true, inlineRefs: false },
  { unicodeLength: false, inlineRefs: false },
];

describe('shipped schema documents', () => {
  test('the pinned digests are exactly the documents Rimthan ships', () => {
    assert.deepEqual(
      [...SHIPPED_SCHEMA_DIGESTS].sort(),
      shippedSchemaDigests(),
      'run `npm run build && node scripts/pin-shipped-schemas.mjs`, then build again',
    );
  });

  test('every shipped document passes the full document check and compiles under every option set', () => {
    for (const { source, schema } of shippedSchemas()) {
      assert.deepEqual(verifySchemaDocument(schema), { ok: true }, source);
      for (const options of OPTION_SETS) {
        assert.doesNotThrow(() => new SchemaCompiler(options).compile(schema), `${source} ${JSON.stringify(options)}`);
      }
    }
  });

  test('a document Rimthan does not ship is checked in full and compiled at once', () => {
    const broken = { type: 'object', properties: { a: { type: 'string', format: 'not-a-format' } } };
    assert.equal(checkSchemaDocument(broken).ok, false);
    assert.throws(() => new SchemaCompiler().compileOrDefer(broken), { code: 'invalid_schema' });
  });

  test('a shipped document compiles on first use, once per option set, with the verdicts of a compiled one', async () => {
    const { schema } = shippedSchemas().find((s) => s.source === 'checkpoint token body') ?? assert.fail('missing');
    const compiler = new SchemaCompiler({ unicodeLength: false });
    const deferred = compiler.compileOrDefer(schema);
    // Every compiler of the same options, given any copy of the document, shares the one deferred check.
    assert.equal(new SchemaCompiler({ unicodeLength: false }).compileOrDefer(structuredClone(schema)), deferred);
    assert.notEqual(new SchemaCompiler().compileOrDefer(schema), deferred);
    const now = compiler.compile(schema);
    assert.deepEqual(deferred({}), now({}));
    await warmDeferredSchemas();
    assert.deepEqual(deferred({ schema: 'x' }), now({ schema: 'x' }));
  });
});
