/**
 * `rimthan registry init DIR --workflow ID`: the folder it writes passes `registry check`, `registry build` and
 * `registry test` (every step, validator and schema covered) as written; it carries the packaged library's current
 * shared host adapters and validator subagent byte for byte; its YAML files name the package's authoring schemas; and
 * it refuses a non-empty folder and an id it cannot use, writing nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../../../src/cli/run.js';
import { packageRoot } from '../../../src/package/index.js';
import { captureIo } from '../support.js';

const LIBRARY = join(packageRoot(), 'releases', 'src', 'library');

describe('rimthan registry init', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-registry-init-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('scaffolds a source that passes check, build and test at 100% coverage as written', async () => {
    const io = captureIo(work);
    assert.equal(await runCli(['registry', 'init', 'plans', '--workflow', 'plan-work'], io), 0, io.stderr.join('\n'));
    assert.ok(io.stdout.includes(join('plans', 'workflows', 'plan-work@0.1.0.yaml')), io.stdout.join('\n'));
    assert.match(
      io.stderr[0] ?? '',
      /^rimthan: wrote \d+ files in plans: workflow plan-work@0\.1\.0, release plan-work-0\.1\.0/,
    );

    const check = captureIo(work);
    assert.equal(await runCli(['registry', 'check', 'plans'], check), 0, check.stdout.join('\n'));
    assert.match(
      check.stdout[0] ?? '',
      /^ok: plans compiles to release plan-work-0\.1\.0 \(1 workflow, manifest [0-9a-f]{64}\)$/,
    );

    const build = captureIo(work);
    assert.equal(await runCli(['registry', 'build', 'plans', '--out', 'plan-work.json'], build), 0);
    assert.ok(existsSync(join(work, 'plan-work.json')));

    const routes = captureIo(work);
    assert.equal(
      await runCli(['registry', 'test', 'plans', '--min-coverage', '100'], routes),
      0,
      routes.stdout.join('\n'),
    );
    const out = routes.stdout.join('\n');
    assert.match(out, /^plan-work@0\.1\.0 +1\/1 +2\/2 +0\/0 +1\/1 +1\/1 +2\/2 +100%$/m);
    assert.match(out, /1 scenario: 1 passed, 0 failed .*every workflow reaches 100%$/);
  });

  test('carries the packaged library shared adapters, validator subagent and setup instruction byte for byte', () => {
    const copied = ['assets/host-adapter', 'assets/subagent'].flatMap((folder) =>
      readdirSync(join(work, 'plans', folder)).map((name) => `${folder}/${name}`),
    );
    assert.ok(copied.length >= 5, copied.join(', '));
    for (const rel of [...copied, 'assets/instruction/prepare-workspace@1.0.0.md']) {
      assert.equal(readFileSync(join(work, 'plans', rel), 'utf8'), readFileSync(join(LIBRARY, rel), 'utf8'), rel);
    }
    const workflow = readFileSync(join(work, 'plans', 'workflows', 'plan-work@0.1.0.yaml'), 'utf8');
    for (const rel of copied.filter((r) => r.startsWith('assets/host-adapter/'))) {
      const [id, version] = rel.slice('assets/host-adapter/'.length, -'.md'.length).split('@');
      assert.ok(workflow.includes(`{ id: ${id ?? ''}, version: ${version ?? ''} }`), `the workflow pins ${rel}`);
    }
  });

  test("each YAML file names the package's authoring schema for its kind, by a path that resolves", () => {
    const expected: Record<string, string> = {
      'registry.yaml': 'registry',
      'workflows/plan-work@0.1.0.yaml': 'workflow',
      'validators/plan-work-plan-check@0.1.0.yaml': 'validator',
      'scenarios/plan-work/first-route.yaml': 'scenario',
    };
    for (const [rel, kind] of Object.entries(expected)) {
      const first = readFileSync(join(work, 'plans', rel), 'utf8').split('\n')[0] ?? '';
      const m = /^# yaml-language-server: \$schema=(.+)$/.exec(first);
      assert.ok(m?.[1] !== undefined, `${rel} opens with the modeline`);
      const target = resolve(dirname(join(work, 'plans', rel)), m[1]);
      assert.equal(target, join(packageRoot(), 'schemas', 'authoring', `${kind}.schema.json`), rel);
    }
  });

  test('every file it writes says what to edit', () => {
    for (const rel of [
      'registry.yaml',
      'workflows/plan-work@0.1.0.yaml',
      'validators/plan-work-plan-check@0.1.0.yaml',
      'assets/instruction/plan-work-plan@0.1.0.md',
      'assets/validator-brief/plan-work-plan-check@0.1.0.md',
      'scenarios/plan-work/first-route.yaml',
    ]) {
      assert.match(readFileSync(join(work, 'plans', rel), 'utf8'), /\bEdit\b|\bedit\b/, rel);
    }
  });

  test('refuses a folder that is not empty, writing nothing', async () => {
    mkdirSync(join(work, 'busy'));
    writeFileSync(join(work, 'busy', 'notes.txt'), 'mine\n');
    const io = captureIo(work);
    assert.equal(await runCli(['registry', 'init', 'busy', '--workflow', 'plan-work'], io), 1);
    assert.deepEqual(io.stderr, ['rimthan: busy is not empty: registry init writes a new source folder']);
    assert.deepEqual(readdirSync(join(work, 'busy')), ['notes.txt']);
  });

  for (const bad of ['Plan_Work', 'plan--work', '9lives', 'x'.repeat(54)]) {
    test(`refuses the workflow id ${bad.slice(0, 12)} as a usage error, writing nothing`, async () => {
      const io = captureIo(work);
      assert.equal(await runCli(['registry', 'init', 'bad', '--workflow', bad], io), 2);
      assert.match(
        io.stderr.join('\n'),
        /is not a kebab-case id of at most 53 characters.*\nSee: rimthan registry init --help$/,
      );
      assert.equal(existsSync(join(work, 'bad')), false);
    });
  }

  test('needs --workflow', async () => {
    const io = captureIo(work);
    assert.equal(await runCli(['registry', 'init', 'none'], io), 2);
    assert.deepEqual(io.stderr, ['rimthan: --workflow ID is required\nSee: rimthan registry init --help']);
  });
});
