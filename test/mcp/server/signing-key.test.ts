/**
 * Key management for `rimthan serve` (spec: checkpoints-data-perimeter.md "WorkflowTokenSigner"): no configuration
 * needed, a generated key kept privately and reused across restarts, the environment taking precedence.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { TokenSigner } from '../../../src/core/index.js';
import { loadSigningSetup, rimthanStateDirectory } from '../../../src/mcp/server/signing-key.js';

describe('signing key setup', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function stateDir(): string {
    const d = mkdtempSync(join(tmpdir(), 'rimthan-key-'));
    dirs.push(d);
    return join(d, 'rimthan');
  }

  test('without RIMTHAN_WORKFLOW_SIGNING_SECRET a private key is generated once and reused', () => {
    const dir = stateDir();
    const first = loadSigningSetup({}, dir);
    assert.equal(first.source, 'state-file');
    assert.equal(first.created, true);
    assert.equal(statSync(join(dir, 'signing-key.json')).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const second = loadSigningSetup({}, dir);
    assert.equal(second.created, false);
    assert.equal(second.ring.activeKeyId, first.ring.activeKeyId);
    const token = new TokenSigner(first.ring).sign('checkpoint', { n: 1 });
    assert.equal(new TokenSigner(second.ring).verify('checkpoint', token).ok, true, 'a restart verifies old tokens');
  });

  test('the environment secret takes precedence and no key file is written', () => {
    const dir = stateDir();
    const setup = loadSigningSetup(
      { RIMTHAN_WORKFLOW_SIGNING_SECRET: 's'.repeat(40), RIMTHAN_WORKFLOW_SIGNING_KEY_ID: 'k2026' },
      dir,
    );
    assert.equal(setup.source, 'environment');
    assert.equal(setup.ring.activeKeyId, 'k2026');
    assert.equal(existsSync(join(dir, 'signing-key.json')), false);
  });

  test('retired verification keys still verify tokens signed before a rotation', () => {
    const dir = stateDir();
    const old = loadSigningSetup({}, dir);
    const token = new TokenSigner(old.ring).sign('checkpoint', { n: 1 });
    const oldSecret = old.ring.activeSecret.toString('utf8');
    const rotated = loadSigningSetup({
      RIMTHAN_WORKFLOW_SIGNING_SECRET: 'n'.repeat(40),
      RIMTHAN_WORKFLOW_SIGNING_KEY_ID: 'new',
      RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON: JSON.stringify({ [old.ring.activeKeyId]: oldSecret }),
    });
    assert.equal(new TokenSigner(rotated.ring).verify('checkpoint', token).ok, true);
  });

  test('a key id without a secret is refused instead of being ignored, and no key file is written', () => {
    const dir = stateDir();
    assert.throws(() => loadSigningSetup({ RIMTHAN_WORKFLOW_SIGNING_KEY_ID: 'prod-2026' }, dir), {
      code: 'invalid_signing_key',
      message: /RIMTHAN_WORKFLOW_SIGNING_SECRET is not/,
    });
    assert.equal(existsSync(join(dir, 'signing-key.json')), false);
  });

  test('a key file other users can read is refused', () => {
    const dir = stateDir();
    loadSigningSetup({}, dir);
    chmodSync(join(dir, 'signing-key.json'), 0o644);
    assert.throws(() => loadSigningSetup({}, dir), { code: 'insecure_signing_key' });
  });

  test('the state directory follows XDG_STATE_HOME, else ~/.local/state', () => {
    assert.equal(rimthanStateDirectory({ XDG_STATE_HOME: '/x/state', HOME: '/home/u' }), '/x/state/rimthan');
    assert.equal(rimthanStateDirectory({ HOME: '/home/u' }), '/home/u/.local/state/rimthan');
  });
});
