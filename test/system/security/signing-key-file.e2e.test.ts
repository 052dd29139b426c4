/**
 * The generated checkpoint signing key (spec: checkpoints-data-perimeter.md "WorkflowTokenSigner": the secret never
 * leaves the server): created private from its first byte, never read through a symlink or from a file others can
 * read, never printed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { loadSigningSetup } from '../../../src/mcp/index.js';
import { runCli } from '../../../src/cli/run.js';
import { captureIo } from '../../cli/support.js';

const KEY_FILE = 'signing-key.json';

describe('signing key file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function scratch(): string {
    const d = mkdtempSync(join(tmpdir(), 'rimthan-sec-key-'));
    dirs.push(d);
    return d;
  }

  test('is created 0600 in a 0700 folder even under a permissive umask, with no temp file left behind', () => {
    const dir = join(scratch(), 'state', 'rimthan');
    const previous = process.umask(0);
    try {
      loadSigningSetup({}, dir);
    } finally {
      process.umask(previous);
    }
    assert.equal(statSync(join(dir, KEY_FILE)).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, '..')).mode & 0o077, 0, 'created parents are private too');
    assert.deepEqual(readdirSync(dir), [KEY_FILE], 'no temp file left behind');
    assert.deepEqual(
      (readFileSync(join(dir, KEY_FILE), 'utf8').match(/"secret"/g) ?? []).length,
      1,
      'one complete key document',
    );
  });

  test('a group-readable or world-readable key file is refused', () => {
    const dir = join(scratch(), 'rimthan');
    loadSigningSetup({}, dir);
    for (const mode of [0o640, 0o604, 0o660]) {
      chmodSync(join(dir, KEY_FILE), mode);
      assert.throws(() => loadSigningSetup({}, dir), { code: 'insecure_signing_key' }, mode.toString(8));
    }
  });

  test('a key file that is a symlink is refused, even to a private file', () => {
    const root = scratch();
    const real = join(root, 'real');
    loadSigningSetup({}, real);
    const dir = join(root, 'rimthan');
    mkdirSync(dir, { mode: 0o700 });
    symlinkSync(join(real, KEY_FILE), join(dir, KEY_FILE));
    assert.throws(() => loadSigningSetup({}, dir), { code: 'insecure_signing_key' });
  });

  test('a dangling symlink is not followed to create a key elsewhere', () => {
    const root = scratch();
    const dir = join(root, 'rimthan');
    mkdirSync(dir, { mode: 0o700 });
    symlinkSync(join(root, 'elsewhere.json'), join(dir, KEY_FILE));
    assert.throws(() => loadSigningSetup({}, dir), { code: 'insecure_signing_key' });
    assert.throws(() => statSync(join(root, 'elsewhere.json')), { code: 'ENOENT' });
  });

  test('a state folder that is a symlink is refused', () => {
    const root = scratch();
    const real = join(root, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(root, 'rimthan'));
    assert.throws(() => loadSigningSetup({}, join(root, 'rimthan')), { code: 'insecure_signing_key' });
  });

  test('a key file that is not a regular file, or is oversized, is refused without hanging', () => {
    const dir = join(scratch(), 'rimthan');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, KEY_FILE), { mode: 0o700 });
    assert.throws(() => loadSigningSetup({}, dir), { code: 'invalid_signing_key' });
    rmSync(join(dir, KEY_FILE), { recursive: true });
    execFileSync('mkfifo', ['-m', '600', join(dir, KEY_FILE)]);
    assert.throws(
      () => loadSigningSetup({}, dir),
      { code: 'invalid_signing_key' },
      'a FIFO is not opened for a blocking read',
    );
    rmSync(join(dir, KEY_FILE));
    writeFileSync(join(dir, KEY_FILE), 'x'.repeat(1 << 20), { mode: 0o600 });
    assert.throws(() => loadSigningSetup({}, dir), { code: 'invalid_signing_key' });
  });

  test('rimthan serve never prints the secret', async () => {
    const state = scratch();
    const io = captureIo(state, { XDG_STATE_HOME: state, HOME: state });
    const stopped = { ...io, untilStopped: () => Promise.resolve() };
    const code = await runCli(['serve', '--transport', 'http', '--port', '0'], stopped);
    assert.equal(code, 0, io.stderr.join('\n'));
    const key = JSON.parse(readFileSync(join(state, 'rimthan', KEY_FILE), 'utf8')) as { secret: string };
    const printed = [...io.stdout, ...io.stderr].join('\n');
    assert.ok(key.secret.length >= 32);
    assert.ok(!printed.includes(key.secret));
    assert.ok(!printed.includes(Buffer.from(key.secret).toString('base64')));
  });
});
