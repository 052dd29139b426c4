/** The one reader of `.rimthan/workflow-session.json`: the documented shape, bounded, never through a link. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { MAX_SESSION_FILE_BYTES, readSessionFile, sessionFileOf } from '../../../src/console/index.js';

const root = mkdtempSync(join(tmpdir(), 'rimthan-session-file-'));
after(() => rmSync(root, { recursive: true, force: true }));

function workspace(name: string, content?: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, '.rimthan'), { recursive: true });
  if (content !== undefined) writeFileSync(join(dir, '.rimthan', 'workflow-session.json'), content);
  return dir;
}

describe('session file reader', () => {
  test('reads exactly { checkpoint, confirmed_state }', () => {
    const read = readSessionFile(workspace('ok', '{"checkpoint":{"token":"t"},"confirmed_state":{"state":{}}}'));
    assert.ok(read.ok);
    assert.deepEqual(read.session.checkpoint, { token: 't' });
  });

  test('refuses other shapes, duplicate keys, oversized and missing files', () => {
    assert.equal(sessionFileOf({ checkpoint: {}, confirmed_state: {}, artifacts: {} }).ok, false);
    assert.equal(sessionFileOf({ checkpoint: 'x', confirmed_state: {} }).ok, false);
    assert.equal(sessionFileOf([]).ok, false);
    assert.equal(readSessionFile(workspace('dup', '{"checkpoint":{},"checkpoint":{},"confirmed_state":{}}')).ok, false);
    assert.equal(
      readSessionFile(
        workspace('big', `{"checkpoint":{"x":"${'a'.repeat(MAX_SESSION_FILE_BYTES)}"},"confirmed_state":{}}`),
      ).ok,
      false,
    );
    assert.equal(readSessionFile(workspace('none')).ok, false);
    assert.equal(readSessionFile(join(root, 'absent')).ok, false);
  });

  test('never follows a symbolic link, for the file or for .rimthan', () => {
    const target = join(root, 'elsewhere.json');
    writeFileSync(target, '{"checkpoint":{},"confirmed_state":{}}');
    const linked = workspace('linked-file');
    symlinkSync(target, join(linked, '.rimthan', 'workflow-session.json'));
    assert.equal(readSessionFile(linked).ok, false);
    const folder = join(root, 'linked-folder');
    mkdirSync(folder);
    symlinkSync(
      join(workspace('real', '{"checkpoint":{},"confirmed_state":{}}'), '.rimthan'),
      join(folder, '.rimthan'),
    );
    assert.equal(readSessionFile(folder).ok, false);
  });
});
