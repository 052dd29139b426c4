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
    'releaseNotesFlow',
    'RELEASE_NOTES_FLOW',
  ]) {
    assert.ok(name in runs, `${name} is exported`);
  }
  assert.deepEqual(
    runs
      .exampleCatalog({ workspace: '/nonexistent' })
      .list()
      .map((d) => `${d.name}@${d.version}`),
    ['release_notes@v1'],
  );
});
