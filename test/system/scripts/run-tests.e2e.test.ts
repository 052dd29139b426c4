/**
 * scripts/run-tests.mjs as a contributor runs it: `--unit` runs the unit files only (not *.e2e / *.pg), and its guard
 * makes a unit file that starts a process or connects to PostgreSQL fail with the rule and the suffix to use; the full
 * gate (no `--unit`) runs every file and lets them. Each case runs the real script over a scratch test root.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';

const RUNNER = join(packageRoot(), 'scripts', 'run-tests.mjs');
const scratchDirs: string[] = [];

after(() => {
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** A scratch compiled-test root holding `files` (path → body of an ESM test file). */
function testRoot(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-run-tests-'));
  scratchDirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `import { test } from 'node:test';\n${body}\n`);
  }
  return dir;
}

/** Runs the script as a contributor would (not as a child of this test run: NODE_TEST_CONTEXT is dropped). */
function run(root: string, ...args: string[]): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, RIMTHAN_TEST_ROOT: root };
  delete env['NODE_TEST_CONTEXT'];
  const result = spawnSync(process.execPath, [RUNNER, ...args], {
    cwd: packageRoot(),
    encoding: 'utf8',
    env,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const PASSES = "test('adds', () => { if (1 + 1 !== 2) throw new Error('no'); });";
const FAILS = "test('must not run in the unit loop', () => { throw new Error('ran'); });";
const SPAWNS =
  "import { spawnSync } from 'node:child_process';\ntest('spawns', () => { spawnSync(process.execPath, ['-e', '']); });";
const POSTGRES = [
  "import { connect } from 'node:net';",
  "test('reaches PostgreSQL', async () => {",
  "  const socket = connect({ host: '127.0.0.1', port: 5432 });",
  "  await new Promise((done) => { socket.on('error', done); socket.on('connect', done); });",
  '  socket.destroy();',
  '});',
].join('\n');

describe('run-tests.mjs', () => {
  test('--unit runs the unit files and leaves *.e2e.test.js and *.pg.test.js to the full gate', () => {
    const root = testRoot({
      'core/sum.test.js': PASSES,
      'cli/serve.e2e.test.js': FAILS,
      'runs/store/queue.pg.test.js': FAILS,
    });
    const unit = run(root, '--unit');
    assert.equal(unit.status, 0, unit.output);
    assert.match(unit.output, /adds/);
    assert.doesNotMatch(unit.output, /must not run in the unit loop/);
    assert.match(unit.output, /unit: 1 files in/);

    const full = run(root);
    assert.equal(full.status, 1, 'the full gate runs the e2e and pg files too');
    assert.match(full.output, /must not run in the unit loop/);
  });

  test('substrings still filter the unit files', () => {
    const root = testRoot({ 'core/sum.test.js': PASSES, 'http/other.test.js': FAILS });
    const unit = run(root, '--unit', 'core/');
    assert.equal(unit.status, 0, unit.output);
    assert.doesNotMatch(unit.output, /must not run in the unit loop/);
  });

  test('a unit file that starts a process fails with the rule and the suffix to use', () => {
    const root = testRoot({ 'cli/spawns.test.js': SPAWNS });
    const unit = run(root, '--unit');
    assert.equal(unit.status, 1, unit.output);
    assert.match(unit.output, /unit test rule: a unit test file may not start a process \(child_process\.spawnSync\)/);
    assert.match(unit.output, /\*\.e2e\.test\.ts/);

    const full = run(root);
    assert.equal(full.status, 0, `the full gate allows processes: ${full.output}`);
  });

  test('a unit file that connects to PostgreSQL fails with the rule and the suffix to use', () => {
    const root = testRoot({ 'runs/store/postgres.test.js': POSTGRES });
    const unit = run(root, '--unit');
    assert.equal(unit.status, 1, unit.output);
    assert.match(unit.output, /unit test rule: a unit test file may not connect to PostgreSQL \(port 5432\)/);
    assert.match(unit.output, /\*\.pg\.test\.ts/);
  });
});
