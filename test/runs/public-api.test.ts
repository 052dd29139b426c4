import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as runs from '../../src/runs/index.js';

test('the runs entry point exposes the engine API by name', () => {
  for (const name of [
    'defineFlow',
    'FlowCatalog',
    'Supervisor',
    'SqliteRunStore',
    'PostgresRunStore',
    'openRunStore',
    'RunStatus',
    'ActivityKind',
    'StoreConflictError',
    'activityEventId',
    'vertexIdempotencyKey',
    'attemptIdOf',
    'decodeCheckpoint',
    'normalizeCancelReason',
    'exampleCatalog',
    'counterFlow',
    'releaseApprovalFlow',
  ]) {
    assert.ok(name in runs, `${name} is exported`);
  }
  assert.deepEqual(
    runs
      .exampleCatalog()
      .list()
      .map((d) => `${d.name}@${d.version}`),
    ['counter_flow@v1', 'release_approval@v1'],
  );
});
