/**
 * `rimthan admin …` against a real Admin API: docs/cli.md's "Admin command messages" table, every row produced by the
 * real executable with its exit code as one line on stderr (no stack, no token), and the human and --json output of
 * the commands an operator runs.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { adminAuthenticator, startAdminServer } from '../../src/admin/index.js';
import type { AdminEndpoint } from '../../src/admin/index.js';
import { packageRoot } from '../../src/package/index.js';
import { staticTokenAuthenticator } from '../../src/identity/index.js';
import { FolderReleaseStore, ReleaseFollower } from '../../src/registry/index.js';
import { tempDir } from '../registry/helpers.js';
import { MAIN } from '../support/serve-process.js';
import { releaseMetrics } from '../support/release-metrics.js';

const ROOT = packageRoot();
const ADMIN = 'admin-cli-token-0123456789abcdef';
const PARTICIPANT = 'participant-cli-token-0123456789';
const OLD = 'research-2026.10.1';
const NEW = 'research-2026.11.1';
const DIST = join(ROOT, 'releases', 'dist');

interface Row {
  readonly exit: number;
  readonly template: string;
  readonly pattern: RegExp;
}

function documentedRows(): Row[] {
  const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  const section = doc.split(/^## Admin command messages$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const m = /^\| ([12]) +\| (`+) ?(.+?) ?\2 +\|/.exec(line);
    if (m === null) continue;
    const template = m[3] ?? '';
    const source = template
      .split(/<[^<>]+>/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?');
    rows.push({ exit: Number(m[1]), template, pattern: new RegExp(`^${source}$`) });
  }
  return rows;
}

function run(
  args: readonly string[],
  token: string | undefined,
): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'admin', ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...(token === undefined ? {} : { RIMTHAN_ADMIN_BEARER_TOKEN: token }) },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

describe('rimthan admin against a real Admin API', () => {
  const { dir, cleanup } = tempDir('rimthan-admin-cli-');
  const store = new FolderReleaseStore(join(dir, 'store'));
  let follower: ReleaseFollower;
  let endpoint: AdminEndpoint;
  let url: string;

  before(async () => {
    follower = await ReleaseFollower.start(store, { pollIntervalMs: 0, allowEmpty: true });
    endpoint = await startAdminServer({
      port: 0,
      releases: { store, follower },
      authenticator: adminAuthenticator([ADMIN], staticTokenAuthenticator([PARTICIPANT])),
      metrics: releaseMetrics(follower),
    });
    url = endpoint.url;
    const tampered = JSON.parse(readFileSync(join(DIST, `${OLD}.json`), 'utf8')) as { workflows: { title: string }[] };
    const first = tampered.workflows[0];
    assert.ok(first);
    first.title = 'edited by hand';
    writeFileSync(join(dir, 'tampered.json'), JSON.stringify(tampered));
    writeFileSync(
      join(dir, 'other-bytes.json'),
      JSON.stringify(JSON.parse(readFileSync(join(DIST, `${OLD}.json`), 'utf8')), null, 2),
    );
  });
  after(async () => {
    await endpoint.close();
    await follower.stop();
    cleanup();
  });

  test('publish, list, show, activate, rollback and migration-target as an operator sees them', async () => {
    const published = await run(['publish', join(DIST, `${OLD}.json`), '--url', url], ADMIN);
    assert.equal(published.status, 0, published.err);
    assert.match(published.out, new RegExp(`^published ${OLD} \\(manifest [0-9a-f]{64}\\)\\n$`));
    const again = await run(['publish', join(DIST, `${OLD}.json`), '--url', url], ADMIN);
    assert.equal(again.out, `${OLD} was already published with these bytes (unchanged)\n`);
    assert.equal((await run(['publish', join(DIST, `${NEW}.json`), '--url', url], ADMIN)).status, 0);
    assert.equal((await run(['activate', OLD, '--url', url], ADMIN)).out, `active: (none) -> ${OLD}\n`);
    const list = await run(['list', '--url', url], ADMIN);
    assert.match(
      list.out,
      new RegExp(`^RELEASE +CHANNELS +PUBLISHED\\n${OLD} +active +\\S+ by bearer-[0-9a-f]{32}\\n`),
    );
    const shown = await run(['show', NEW, '--url', url], ADMIN);
    assert.match(shown.out, /^release +research-2026\.11\.1\nverified +yes\n/);
    assert.match(shown.out, /workflow +research-decision@1\.2\.0 +Research to decision/);
    const json = await run(['list', '--url', url, '--json'], ADMIN);
    assert.deepEqual(
      (JSON.parse(json.out) as { releases: { release: string }[] }).releases.map((r) => r.release),
      [OLD, NEW],
    );
    assert.equal((await run(['activate', NEW, '--url', url], ADMIN)).out, `active: ${OLD} -> ${NEW}\n`);
    assert.equal((await run(['rollback', '--url', url], ADMIN)).out, `rolled back active: ${NEW} -> ${OLD}\n`);
    assert.equal(
      (await run(['migration-target', NEW, '--url', url], ADMIN)).out,
      `migration-target: (none) -> ${NEW}\n`,
    );
    assert.equal(
      (await run(['migration-target', '--clear', '--url', url], ADMIN)).out,
      `migration-target: ${NEW} -> (none)\n`,
    );
    assert.equal(follower.active().release, OLD);
  });

  test('every documented admin message, with its exit code, in one line without a stack or the token', async () => {
    const fresh = new FolderReleaseStore(join(dir, 'fresh'));
    const freshFollower = await ReleaseFollower.start(fresh, { pollIntervalMs: 0, allowEmpty: true });
    const freshEndpoint = await startAdminServer({
      port: 0,
      releases: { store: fresh, follower: freshFollower },
      authenticator: adminAuthenticator([ADMIN], staticTokenAuthenticator([PARTICIPANT])),
      metrics: releaseMetrics(freshFollower),
    });
    const single = freshEndpoint.url;
    try {
      await run(['publish', join(DIST, `${OLD}.json`), '--url', single], ADMIN);
      await run(['activate', OLD, '--url', single], ADMIN);
      const scenarios: { row: string; args: string[]; token?: string }[] = [
        {
          row: '--url ADMIN_URL is required (the serve --admin-port listener, e.g. http://127.0.0.1:8766/admin)',
          args: ['list'],
        },
        { row: 'the Admin API needs a token: set RIMTHAN_ADMIN_BEARER_TOKEN', args: ['list', '--url', url], token: '' },
        { row: '--url <url> is not a URL (e.g. http://127.0.0.1:8766/admin)', args: ['list', '--url', 'not a url'] },
        { row: 'cannot reach the Admin API at <url>: <reason>', args: ['list', '--url', 'http://127.0.0.1:1/admin'] },
        { row: 'cannot read <file>: <reason>', args: ['publish', join(dir, 'missing.json'), '--url', url] },
        {
          row: 'the release file does not verify: <reason> at <entry> (release_invalid, HTTP 400)',
          args: ['publish', join(dir, 'tampered.json'), '--url', url],
        },
        {
          row: 'release <release> already exists with different content (a changed release needs a new name) (release_immutable, HTTP 409)',
          args: ['publish', join(dir, 'other-bytes.json'), '--url', url],
        },
        {
          row: 'the <channel> channel is <release>, not <expected> (reload and retry) (channel_conflict, HTTP 409)',
          args: ['activate', NEW, '--expected-current', NEW, '--url', url],
        },
        {
          row: 'release <release> cannot be used (<reason>) (release_unavailable, HTTP 422)',
          args: ['activate', 'research-2099.1.1', '--url', url],
        },
        { row: 'the active channel has no previous release to roll back to', args: ['rollback', '--url', single] },
        {
          row: 'the credential lacks the scope rimthan:admin (forbidden, HTTP 403)',
          args: ['list', '--url', url],
          token: PARTICIPANT,
        },
        {
          row: 'authentication required (unauthorized, HTTP 401)',
          args: ['list', '--url', url],
          token: 'an-unknown-token-0123456789abcdef',
        },
      ];
      const rows = documentedRows();
      assert.ok(rows.length >= scenarios.length, 'the table was found');
      const covered = new Set<string>();
      for (const s of scenarios) {
        const row = rows.find((r) => r.template === s.row);
        assert.ok(row, `docs/cli.md has the row ${s.row}`);
        const token = s.token === undefined ? ADMIN : s.token === '' ? undefined : s.token;
        const result = await run(s.args, token);
        const lines = result.err.split('\n').filter((l) => l !== '');
        const message = lines[0] ?? '';
        assert.equal(result.status, row.exit, `${s.row}: exit code (stderr: ${result.err})`);
        assert.ok(message.startsWith('rimthan: '), message);
        assert.match(message.slice('rimthan: '.length), row.pattern, `${s.row}: ${message}`);
        assert.equal(lines.filter((l) => !l.startsWith('See: ')).length, 1, `one line: ${result.err}`);
        assert.ok(!result.err.includes(ADMIN) && !result.err.includes(PARTICIPANT), 'no token on stderr');
        covered.add(row.template);
      }
      assert.deepEqual(
        rows.filter((r) => !covered.has(r.template)).map((r) => r.template),
        [],
        'every row has a scenario',
      );
    } finally {
      await freshEndpoint.close();
      await freshFollower.stop();
    }
  });
});
