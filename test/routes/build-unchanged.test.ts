import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../src/package/index.js';
import { buildRelease, serializeReleaseFile } from '../../src/registry/index.js';
import { SCENARIOS_FOLDER } from '../../src/routes/index.js';
import { RESEARCH_SOURCE } from './support.js';

describe('route scenarios are not part of a build', () => {
  test('the research source with its scenarios builds byte for byte to the shipped release file', () => {
    assert.ok(existsSync(join(RESEARCH_SOURCE, SCENARIOS_FOLDER)));
    const built = buildRelease(RESEARCH_SOURCE);
    assert.ok(built.ok, built.ok ? '' : JSON.stringify(built.problems));
    const shipped = readFileSync(join(packageRoot(), 'releases', 'dist', 'research-2026.11.2.json'));
    assert.ok(Buffer.from(serializeReleaseFile(built.file)).equals(shipped));
  });
});
