import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/core/json.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import type { FlowSpec } from '../../../src/runs/flow/types.js';
import { exampleCatalog } from '../../../src/runs/examples/index.js';
import { closedSchema } from '../helpers.js';

const INPUT = closedSchema({ n: { type: 'integer' } });

function flow(overrides: Partial<FlowSpec<JsonObject, JsonObject>> = {}): FlowSpec<JsonObject, JsonObject> {
  return defineFlow<JsonObject, JsonObject>({
    name: 'sample_flow',
    version: 'v1',
    description: 'a sample',
    inputSchema: INPUT,
    graph: { start: 'a', vertices: { a: { run: () => undefined, next: 'b' }, b: { run: () => undefined } } },
    ...overrides,
  });
}

function rejects(spec: FlowSpec<JsonObject, JsonObject>, code = 'invalid_definition'): void {
  assert.throws(
    () => new FlowCatalog().register(spec),
    (e: unknown) => isRimthanError(e) && e.code === code,
  );
}

describe('flow catalog registration', () => {
  test('a well-formed flow registers and resolves by exact name@version', () => {
    const catalog = new FlowCatalog();
    const def = catalog.register(flow());
    assert.equal(catalog.resolve('sample_flow', 'v1'), def);
    assert.equal(catalog.resolve('sample_flow', 'v2'), undefined);
    assert.equal(def.resumeSupported, false);
    assert.equal(def.graph.size, 2);
    assert.deepEqual(def.validateInput({ n: 1 }), { ok: true });
    const bad = def.validateInput({ n: 'x' });
    assert.equal(bad.ok, false);
    assert.equal(def.validateResume({}).ok, false, 'a flow without resume schema refuses every payload');
  });

  test('names must match ^[a-z][a-z0-9_]{2,63}$', () => {
    for (const name of ['ab', 'Sample', '1flow', 'flow-x', 'a'.repeat(65), '']) rejects(flow({ name }));
  });

  test('version must be non-empty and at most 64 bytes; description at most 256 bytes', () => {
    rejects(flow({ version: '' }));
    rejects(flow({ version: 'v'.repeat(65) }));
    rejects(flow({ description: 'é'.repeat(129) }));
    new FlowCatalog().register(flow({ description: 'd'.repeat(256), version: 'v'.repeat(64) }));
  });

  test('schemas must be closed objects at the root with local references only', () => {
    rejects(flow({ inputSchema: { type: 'object' } }));
    rejects(flow({ inputSchema: { type: 'array', additionalProperties: false } }));
    rejects(flow({ inputSchema: { ...INPUT, properties: { n: { $ref: 'https://example.com/s.json' } } } }));
    rejects(flow({ resumeSchema: { type: 'object', additionalProperties: true } }));
    rejects(flow({ inputSchema: { ...INPUT, properties: { n: { type: 'integer', bogusKeyword: 1 } } } }));
    new FlowCatalog().register(
      flow({
        inputSchema: {
          type: 'object',
          additionalProperties: false,
          $defs: { n: { type: 'integer' } },
          properties: { n: { $ref: '#/$defs/n' } },
        },
      }),
    );
  });

  test('graph integrity: start and every static next must exist, no vertex names one target twice', () => {
    rejects(flow({ graph: { start: 'missing', vertices: { a: { run: () => undefined } } } }));
    rejects(flow({ graph: { start: 'a', vertices: { a: { run: () => undefined, next: 'nowhere' } } } }));
    rejects(flow({ graph: { start: 'a', vertices: {} } }));
    rejects(
      flow({
        graph: {
          start: 'a',
          vertices: { a: { run: () => undefined, next: 'b' }, b: { run: () => undefined } },
          edges: [{ from: 'a', to: 'b' }],
        },
      }),
    );
    rejects(
      flow({ graph: { start: 'a', vertices: { a: { run: () => undefined, retry: { attempts: 0, backoffMs: 1 } } } } }),
    );
    rejects(flow({ graph: { start: 'a', vertices: { a: { run: () => undefined, timeoutMs: 0 } } } }));
    const def = new FlowCatalog().register(
      flow({
        graph: {
          start: 'a',
          vertices: { a: { run: () => undefined }, b: { run: () => undefined } },
          edges: [{ from: 'a', to: 'b' }],
        },
      }),
    );
    assert.deepEqual(def.graph.vertices.get('a')?.next, ['b']);
  });

  test('a second registration of the same name@version is a duplicate_definition', () => {
    const catalog = new FlowCatalog();
    catalog.register(flow());
    assert.throws(
      () => catalog.register(flow()),
      (e: unknown) => isRimthanError(e) && e.code === 'duplicate_definition',
    );
    catalog.register(flow({ version: 'v2' }));
  });

  test('list() is sorted by name then version; registered schemas cannot be mutated', () => {
    const catalog = new FlowCatalog();
    catalog.register(flow({ name: 'zeta_flow' }));
    catalog.register(flow({ version: 'v2' }));
    catalog.register(flow({ version: 'v10' }));
    catalog.register(flow());
    assert.deepEqual(
      catalog.list().map((d) => `${d.name}@${d.version}`),
      ['sample_flow@v1', 'sample_flow@v10', 'sample_flow@v2', 'zeta_flow@v1'],
    );
    const def = catalog.resolve('sample_flow', 'v1');
    assert.throws(() => {
      (def?.inputSchema as Record<string, unknown>)['additionalProperties'] = true;
    });
  });

  test('the example catalog holds release_notes v1: repository, since and version in; resumed with approved', () => {
    const catalog = exampleCatalog({ workspace: '/nonexistent' });
    assert.deepEqual(
      catalog.list().map((d) => [d.name, d.version, d.resumeSupported]),
      [['release_notes', 'v1', true]],
    );
    const notes = catalog.resolve('release_notes', 'v1');
    assert.equal(notes?.validateInput({ since: 'v1.2.0', version: '1.3.0' }).ok, true);
    assert.equal(notes?.validateInput({ repository: 'app', since: 'v1.2.0', version: '1.3.0' }).ok, true);
    for (const bad of [
      { version: '1.3.0' },
      { since: 'v1.2.0', version: 'soon' },
      { since: '--output=x', version: '1.3.0' },
      { since: 'v1..HEAD', version: '1.3.0' },
      { since: 'v1.2.0', version: '1.3.0', extra: true },
    ]) {
      assert.equal(notes?.validateInput(bad).ok, false, JSON.stringify(bad));
    }
    assert.equal(notes?.validateResume({ approved: true }).ok, true);
    assert.equal(notes?.validateResume({ approved: 'yes' }).ok, false);
    assert.equal(notes?.validateResume({ approved: true, extra: 1 }).ok, false);
  });
});
