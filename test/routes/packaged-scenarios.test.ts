/**
 * Every packaged source folder with route scenarios (releases/src/<source>/scenarios/) passes them with 100% coverage,
 * and the source of the active packaged release has scenarios: a new packaged source joins this test by having them.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { packageRoot } from '../../src/package/index.js';
import { formatRouteReport, SCENARIOS_FOLDER, testSource } from '../../src/routes/index.js';

const SOURCES = join(packageRoot(), 'releases', 'src');
const ACTIVE = readFileSync(join(packageRoot(), 'releases', 'ACTIVE'), 'utf8').trim();

function releaseOf(dir: string): string | undefined {
  return /^release:\s*(\S+)/m.exec(readFileSync(join(dir, 'registry.yaml'), 'utf8'))?.[1];
}

const sources = readdirSync(SOURCES).map((name) => join(SOURCES, name));
const tested = sources.filter((dir) => existsSync(join(dir, SCENARIOS_FOLDER)));

describe('packaged route scenarios', () => {
  test('the active packaged release is built from a source with route scenarios', () => {
    const active = sources.find((dir) => releaseOf(dir) === ACTIVE);
    assert.ok(active !== undefined, `no source folder under releases/src builds ${ACTIVE}`);
    assert.ok(tested.includes(active), `${active} has no ${SCENARIOS_FOLDER}/ folder`);
  });

  for (const dir of tested) {
    test(`${dir.slice(SOURCES.length + 1)}: every scenario passes and every workflow is 100% covered`, async () => {
      const outcome = await testSource(dir, { minCoverage: 100 });
      assert.equal(outcome.kind, 'tested', JSON.stringify(outcome).slice(0, 2000));
      if (outcome.kind !== 'tested') return;
      assert.ok(outcome.report.ok, formatRouteReport(outcome.report).join('\n'));
      assert.ok(outcome.report.scenarios.length > 0);
    });
  }
});
