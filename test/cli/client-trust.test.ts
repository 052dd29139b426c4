/**
 * The admin and participant CLIs never trust a server's text: what a hostile server sends (ANSI escape sequences,
 * OSC 8 links, C1 controls, forged newlines) reaches the terminal escaped and bounded, on stdout and stderr, in human
 * and JSON output (JSON output still parses to what the server sent). The escaping itself is a property: no control
 * character ever passes. The failure messages of each bad answer are pinned in messages.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { runCli } from '../../src/cli/run.js';
import { isParticipantError, Workspace } from '../../src/participant/index.js';
import { bounded, MAX_SHOWN_CHARS, shown, terminalText } from '../../src/cli/terminal.js';
import { ANSI, hostileAdmin, hostileMcp } from './hostile-servers.js';
import type { Listening } from './hostile-servers.js';
import { captureIo } from './support.js';

/** Every character a terminal acts on or that reorders text (newline and tab apart). */
/* eslint-disable no-control-regex -- the control characters are what the test looks for */
const CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
/* eslint-enable no-control-regex */

describe('terminal escaping', () => {
  test('no control character ever passes, and plain text passes unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
        const value = shown(text);
        assert.doesNotMatch(value, CONTROL);
        assert.doesNotMatch(value, /[\n\t]/);
        assert.doesNotMatch(terminalText(text), CONTROL);
        assert.ok(value.length <= MAX_SHOWN_CHARS * 6 + 60, 'bounded');
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 400 }), (text) => {
        // eslint-disable-next-line no-control-regex -- plain text: without the controls
        const plain = text.replace(/[\u0000-\u001f\u007f]/g, '');
        assert.equal(shown(plain), plain);
        assert.equal(terminalText(`${plain}\n\t${plain}`), `${plain}\n\t${plain}`);
      }),
    );
  });

  test('an escape sequence is shown visibly, a long value is cut with a marker', () => {
    assert.equal(
      shown('\u001b]8;;https://x\u001b\\a\u001b]8;;\u001b\\'),
      '\\u001b]8;;https://x\\u001b\\a\\u001b]8;;\\u001b\\',
    );
    assert.equal(shown('\u009b31m\nx'), '\\u009b31m\\u000ax');
    assert.equal(bounded('abcdef', 4), 'abcd… (2 more characters not shown)');
    assert.equal(bounded('ab\ud83d\ude00', 3), 'ab… (2 more characters not shown)', 'never half a surrogate pair');
  });
});

describe('what a hostile server sends reaches the terminal escaped', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-client-trust-'));
  const env = { RIMTHAN_ADMIN_BEARER_TOKEN: 'client-trust-admin-token-0123456789' };
  let admin: Listening;
  let mcp: Listening;

  before(async () => {
    admin = await hostileAdmin();
    mcp = await hostileMcp();
  });
  after(async () => {
    await mcp.close();
    await admin.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('admin list: release names and principals with ANSI, OSC 8 and a forged line, in text and JSON', async () => {
    const io = captureIo(work, env);
    assert.equal(await runCli(['admin', 'list', '--url', `${admin.url}/ansi-list`], io), 0, io.stderr.join(''));
    const out = io.stdout.join('\n');
    assert.doesNotMatch(out, CONTROL);
    assert.equal(out.split('\n').length, 2, 'the header and one row: the newline the server sent forges no line');
    assert.ok(out.includes('r\\u001b[2J\\u001b[31mred\\u001b]8;;https://evil.example/\\u001b\\click'), out);
    assert.ok(out.includes('x\\u000aforged line'), out);

    const json = captureIo(work, env);
    assert.equal(await runCli(['admin', 'list', '--json', '--url', `${admin.url}/ansi-list`], json), 0);
    const text = json.stdout.join('\n');
    assert.doesNotMatch(text, CONTROL);
    const parsed = JSON.parse(text) as { releases: { release: string }[] };
    assert.equal(parsed.releases[0]?.release, `r${ANSI}`, 'the JSON still says exactly what the server sent');
  });

  test("admin: the server's error message is escaped in the one line on stderr", async () => {
    const io = captureIo(work, env);
    assert.equal(await runCli(['admin', 'list', '--url', `${admin.url}/ansi-error`], io), 1);
    const err = io.stderr.join('\n');
    assert.doesNotMatch(err, CONTROL);
    assert.equal(err.split('\n').length, 1, err);
    assert.match(err, /^rimthan: denied \\u001b\[2J.*\\u000arimthan: forged line \(forbidden, HTTP 403\)$/);
  });

  test("participant: a tool error's message is escaped in the one line on stderr", async () => {
    const io = captureIo(work, {});
    const args = ['participant', 'start', '--workflow', 'w', '--harness', 'codex', '--adapter', 'a@1.0.0', '--yes'];
    assert.equal(await runCli([...args, '--url', `${mcp.url}/ansi/mcp`], io), 1);
    const err = io.stderr.join('\n');
    assert.doesNotMatch(err, CONTROL);
    assert.match(err, /^rimthan: rimthan\.start_workflow refused: workflow_protocol_error \(x\): no \\u001b\[2J/);
  });

  test('participant: an answer 10 MB long is refused before any of it is printed', async () => {
    const io = captureIo(work, {});
    const args = ['participant', 'start', '--workflow', 'w', '--harness', 'codex', '--adapter', 'a@1.0.0', '--yes'];
    assert.equal(await runCli([...args, '--url', `${mcp.url}/huge/mcp`], io), 1);
    assert.deepEqual(io.stdout, []);
    assert.ok(io.stderr.join('').length < 500, io.stderr.join(''));
    assert.match(io.stderr.join(''), /sent an answer larger than 8388608 bytes/);
  });
});

describe('a path the file system cannot hold is a refusal, not a system error', () => {
  test('a segment over 255 bytes is refused before the file system is asked; ENAMETOOLONG from it is refused too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rimthan-long-path-'));
    try {
      const workspace = new Workspace(dir);
      const refused = (words: RegExp) => (error: unknown) =>
        isParticipantError(error, 'unsafe_path') && words.test(error.message);
      assert.throws(
        () => workspace.write(`docs/${'y'.repeat(300)}.md`, Buffer.from('x')),
        refused(/has a segment longer than 255 bytes$/),
      );
      // 250 bytes pass the check; the temporary file beside it does not fit, and the file system says so.
      assert.throws(
        () => workspace.write('z'.repeat(250), Buffer.from('x')),
        refused(/is longer than the file system allows \(ENAMETOOLONG\)$/),
      );
      assert.throws(() => workspace.read(`${'w'.repeat(256)}`, 10), refused(/longer than 255 bytes/));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
