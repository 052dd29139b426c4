/** The `rimthan` CLI: help, exit codes, the registry authoring loop and operator run commands. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { runCli } from '../../src/cli/run.js';
import { packageRoot } from '../../src/package/index.js';
import { verifyReleaseFile } from '../../src/registry/index.js';
import { SqliteRunStore } from '../../src/runs/index.js';
import { captureIo } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const SOURCE = join(packageRoot(), 'releases', 'src', 'research-decision');

describe('rimthan CLI', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-cli-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('the executable prints help and its version and exits 0; a usage error exits 2', () => {
    const help = spawnSync(process.execPath, [MAIN, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: rimthan <command>/);
    const version = spawnSync(process.execPath, [MAIN, '--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
    const bad = spawnSync(process.execPath, [MAIN, 'serve', '--transport', 'carrier-pigeon'], { encoding: 'utf8' });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--transport must be one of stdio, http/);
    assert.equal(bad.stdout, '');
  });

  test('every command has --help', async () => {
    for (const argv of [
      ['serve', '--help'],
      ['registry', 'check', '--help'],
      ['registry', 'build', '-h'],
      ['registry', 'graph', '--help'],
      ['runs', 'list', '--help'],
      ['runs', 'cancel', '--help'],
    ]) {
      const io = captureIo(work);
      assert.equal(await runCli(argv, io), 0, argv.join(' '));
      assert.match(io.stdout.join('\n'), /Usage:/);
    }
  });

  test('unknown commands and options are usage errors (exit 2)', async () => {
    for (const argv of [
      ['launch'],
      ['registry', 'publish', 'x'],
      ['registry', 'check'],
      ['runs', 'list', '--bogus'],
      ['serve', '--session', 'x'],
    ]) {
      const io = captureIo(work);
      assert.equal(await runCli(argv, io), 2, argv.join(' '));
      assert.match(io.stderr.join('\n'), /See: rimthan/);
    }
  });

  test('registry check passes the packaged source and reports a broken one as file:line, exit 1', async () => {
    const ok = captureIo(work);
    assert.equal(await runCli(['registry', 'check', SOURCE], ok), 0);
    assert.match(ok.stdout.join('\n'), /research-2026\.11\.2/);

    const broken = join(work, 'broken-source');
    cpSync(SOURCE, broken, { recursive: true });
    const workflow = join(broken, 'workflows', 'research-decision@1.3.0.yaml');
    const lines = readFileSync(workflow, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('entry_aliases:'));
    lines.splice(at, 0, 'surprise_key: true');
    writeFileSync(workflow, lines.join('\n'));
    const io = captureIo(work);
    assert.equal(await runCli(['registry', 'check', broken], io), 1);
    assert.ok(
      io.stdout.some((l) => l.startsWith(`workflows/research-decision@1.3.0.yaml:${at + 1}: `)),
      `file:line reported: ${io.stdout.join(' | ')}`,
    );
  });

  test('registry build writes a verifiable release file and refuses to change an existing one', async () => {
    const out = join(work, 'dist', 'release.json');
    const io = captureIo(work);
    assert.equal(await runCli(['registry', 'build', SOURCE, '--out', out], io), 0);
    const verified = verifyReleaseFile(readFileSync(out));
    assert.ok(verified.ok);
    assert.equal(verified.release.release, 'research-2026.11.2');
    assert.equal(await runCli(['registry', 'build', SOURCE, '--out', out], captureIo(work)), 0, 'same bytes: no-op');
    writeFileSync(out, '{}\n');
    const again = captureIo(work);
    assert.equal(await runCli(['registry', 'build', SOURCE, '--out', out], again), 1);
    assert.match(again.stderr.join('\n'), /immutable/);
    assert.equal(readFileSync(out, 'utf8'), '{}\n');
  });

  test('registry graph prints a Mermaid flowchart of a source or a release file', async () => {
    const file = join(packageRoot(), 'releases', 'dist', 'research-2026.11.1.json');
    for (const target of [SOURCE, file]) {
      const io = captureIo(work);
      assert.equal(await runCli(['registry', 'graph', target, '--workflow', 'research-decision'], io), 0);
      const text = io.stdout.join('\n');
      assert.match(text, /^flowchart TD/);
      assert.match(text, /research_route/);
    }
    const missing = captureIo(work);
    assert.equal(await runCli(['registry', 'graph', SOURCE, '--workflow', 'nope'], missing), 1);
  });

  test('runs commands print JSON for one session and fail with the run-tool error', async () => {
    const file = join(work, 'runs', 'runs.db');
    const store = `sqlite:${file}`;
    const before = captureIo(work);
    assert.equal(await runCli(['runs', 'list', '--store', store, '--session', 'ops'], before), 1);
    assert.match(before.stderr.join('\n'), /^rimthan: no run store at sqlite:\S+runs\.db: the file does not exist/);
    assert.equal(existsSync(join(work, 'runs')), false, 'an operator command creates nothing');
    mkdirSync(join(work, 'runs'));
    const created = new SqliteRunStore(file);
    await created.open();
    await created.close();
    const list = captureIo(work);
    assert.equal(await runCli(['runs', 'list', '--store', store, '--session', 'ops'], list), 0);
    const page = JSON.parse(list.stdout.join('\n')) as { runs: unknown[] };
    assert.deepEqual(page.runs, []);
    const get = captureIo(work);
    const missingRun = '6f1c1d3e-2f7a-4c55-9d1e-3b2a1c0d9e8f';
    assert.equal(await runCli(['runs', 'get', missingRun, '--store', store, '--session', 'ops'], get), 1);
    assert.equal((JSON.parse(get.stderr.join('\n')) as { error: { code: string } }).error.code, 'not_found');
    const noSession = captureIo(work);
    assert.equal(await runCli(['runs', 'list', '--store', store], noSession), 2);
  });
});
