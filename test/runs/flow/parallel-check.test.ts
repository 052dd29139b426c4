import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../src/core/json.js';
import { isRimthanError } from '../../../src/core/errors.js';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import type { GraphSpec } from '../../../src/runs/flow/types.js';
import { closedSchema } from '../helpers.js';

const run = () => undefined;

function register(graph: GraphSpec<JsonObject>) {
  return new FlowCatalog().register({
    name: 'parallel_flow',
    version: 'v1',
    description: 'parallel',
    inputSchema: closedSchema({ n: { type: 'integer' } }),
    graph,
  });
}

function refusal(graph: GraphSpec<JsonObject>): string {
  try {
    register(graph);
  } catch (error) {
    assert.ok(isRimthanError(error) && error.code === 'invalid_definition');
    return error.message;
  }
  assert.fail('the flow registered');
}

describe('parallel branches at register', () => {
  test('several edges from one vertex fan out; declared disjoint writes register', () => {
    const def = register({
      start: 'fork',
      vertices: {
        fork: { run, next: 'a' },
        a: { run, writes: ['a'], next: 'join' },
        b: { run, writes: ['b'], next: 'join' },
        join: { run },
      },
      edges: [{ from: 'fork', to: 'b' }],
    });
    assert.deepEqual(def.graph.vertices.get('fork')?.next, ['a', 'b']);
  });

  test('two parallel branches writing one key without a reducer are an invalid_definition', () => {
    const graph: GraphSpec<JsonObject> = {
      start: 'fork',
      vertices: {
        fork: { run, next: ['a', 'b'] },
        a: { run, writes: ['shared', 'a'] },
        b: { run, writes: ['shared'] },
      },
    };
    assert.equal(
      refusal(graph),
      'vertices a and b can run in parallel and both write state key "shared", which has no reducer',
    );
    register({ ...graph, reducers: { shared: (x, y) => y ?? x ?? null } });
  });

  test('a parallel branch must declare its writes, also further down a branch and behind a conditional start', () => {
    assert.match(
      refusal({ start: 'fork', vertices: { fork: { run, next: ['a', 'b'] }, a: { run, writes: [] }, b: { run } } }),
      /vertex b can run in parallel with a and must declare the state keys it writes/,
    );
    // a1 runs in the same step as b (uneven branches): their writes are checked against each other.
    assert.match(
      refusal({
        start: 'route',
        vertices: {
          route: { run, next: () => 'fork' },
          fork: { run, next: ['a', 'b'] },
          a: { run, writes: [], next: 'a1' },
          a1: { run, writes: ['k'] },
          b: { run, writes: [], next: 'b1' },
          b1: { run, writes: ['k'] },
        },
      }),
      /vertices a1 and b1 can run in parallel and both write state key "k"/,
    );
  });

  test('forEach needs writes with reducers; maxItems and onError are checked', () => {
    assert.match(
      refusal({ start: 'm', vertices: { m: { run, forEach: () => [], writes: ['out'] } } }),
      /vertex m fans out \(forEach\) and writes state key "out", which has no reducer/,
    );
    assert.match(refusal({ start: 'm', vertices: { m: { run, forEach: () => [] } } }), /must declare the state keys/);
    register({
      start: 'm',
      reducers: { out: (x) => x ?? null },
      vertices: { m: { run, forEach: () => [], writes: ['out'] } },
    });
    assert.match(
      refusal({ start: 'm', vertices: { m: { run, forEach: () => [], writes: [], maxItems: 1001 } } }),
      /maxItems must be an integer 1\.\.1000/,
    );
    assert.match(refusal({ start: 'a', vertices: { a: { run, onError: 'nowhere' } } }), /onError names no vertex/);
    assert.match(
      refusal({ start: 'a', vertices: { a: { run, onError: 'a' } } }),
      /onError cannot name the vertex itself/,
    );
    assert.match(
      refusal({ start: 'a', vertices: { a: { run, retry: { attempts: 2, backoffMs: 0, retryable: 1 as never } } } }),
      /retry\.retryable must be a function/,
    );
  });
});
