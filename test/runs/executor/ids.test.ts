import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { activityEventId } from '../../../src/runs/executor/event-id.js';
import { vertexIdempotencyKey } from '../../../src/runs/executor/idempotency-key.js';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('deterministic ids', () => {
  test('event ids are UUIDv5-style, deterministic, and differ in every component', () => {
    const base = { session_id: 's', run_id: 'r', kind: 'vertex_completed', revision: 3, vertex_id: 'v', ordinal: 0 };
    const id = activityEventId(base);
    assert.match(id, UUID_V5);
    assert.equal(activityEventId({ ...base }), id);
    const variants = [
      { ...base, session_id: 's2' },
      { ...base, run_id: 'r2' },
      { ...base, kind: 'run_completed' },
      { ...base, revision: 4 },
      { ...base, vertex_id: 'w' },
      { ...base, vertex_id: undefined },
      { ...base, ordinal: 1 },
    ];
    const ids = new Set([id, ...variants.map(activityEventId)]);
    assert.equal(ids.size, variants.length + 1);
  });

  test('component boundaries cannot be shifted to forge a collision', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (a, b, c, d) => {
        fc.pre(a !== c || b !== d);
        const x = activityEventId({ session_id: a, run_id: b, kind: 'k', revision: 0, ordinal: 0 });
        const y = activityEventId({ session_id: c, run_id: d, kind: 'k', revision: 0, ordinal: 0 });
        return x !== y;
      }),
    );
  });

  test('idempotency keys are stable per (run, vertex, attempt) and differ when any of them differs', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.string({ minLength: 1 }), fc.nat(), fc.nat(), (run, vertex, a1, a2) => {
        assert.equal(vertexIdempotencyKey(run, vertex, a1), vertexIdempotencyKey(run, vertex, a1));
        assert.match(vertexIdempotencyKey(run, vertex, a1), /^[0-9a-f]{64}$/);
        if (a1 !== a2) assert.notEqual(vertexIdempotencyKey(run, vertex, a1), vertexIdempotencyKey(run, vertex, a2));
      }),
    );
  });
});
