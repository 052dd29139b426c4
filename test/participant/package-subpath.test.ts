/** `rimthan/participant` imports by package name, as a harness author's project imports it (package.json "exports"). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

describe('the rimthan/participant subpath', () => {
  test('imports by package name and exposes the harness API', async () => {
    // A computed specifier keeps TypeScript from resolving the package's own (not yet built) declarations.
    const specifier = 'rimthan/participant';
    const m = (await import(specifier)) as Record<string, unknown>;
    for (const name of [
      'connectServer',
      'ParticipantSession',
      'Workspace',
      'deliverHostAssets',
      'hostAttestationFromDisk',
      'outputsFromDisk',
      'workOrdersFor',
      'assembleReports',
      'readSession',
      'writeSession',
      'sessionStatus',
    ]) {
      assert.equal(typeof m[name], 'function', name);
    }
    assert.equal(m['SESSION_FILE'], '.rimthan/workflow-session.json');
  });
});
