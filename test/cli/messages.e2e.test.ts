/**
 * docs/cli.md's table of exit codes and messages, checked against the real executable: every row is produced by at
 * least one scenario here, with the row's exit code, as one line on stderr (plus `See: …` for usage errors), without a
 * stack and without `--debug`. A message the CLI changes, or a row nobody can produce, fails here.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { packageRoot } from '../../src/package/index.js';
import { SqliteRunStore } from '../../src/runs/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { HOST, httpServer } from '../participant/support/cli.js';
import type { Served } from '../participant/support/cli.js';
import { hostileAdmin, hostileMcp, rewritingProxy } from './hostile-servers.js';
import type { Listening } from './hostile-servers.js';
import { documentedRows } from './support.js';
import type { DocumentedRow } from './support.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const ROOT = packageRoot();
const SOURCE = join(ROOT, 'releases', 'src', 'research-decision');
const ENDPOINT = 'https://mcp.example.org/mcp';

/** The rows of the "Exit codes and messages" table. */
function rowsOfTable(): DocumentedRow[] {
  return documentedRows(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8'), 'Exit codes and messages');
}

interface Scenario {
  /** The template of the row this scenario produces, exactly as the table writes it. */
  readonly row: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string;
  /** Text that must not appear on stderr (a password, a token). */
  readonly secret?: string;
  /** Runs the executable some other way (a deleted working directory). */
  readonly run?: () => { status: number | null; stderr: string };
}

describe('docs/cli.md: every message, with its exit code, from the real executable', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-messages-'));
  const at = (...parts: string[]): string => join(work, ...parts);
  const store = `sqlite:${at('existing', 'runs.db')}`;
  let busy: Server;
  let busyPort = 0;

  before(async () => {
    mkdirSync(at('existing'));
    const created = new SqliteRunStore(at('existing', 'runs.db'));
    await created.open();
    await created.close();
    for (const name of ['bad-session', 'unreadable-session']) {
      mkdirSync(at(name));
      const s = new SqliteRunStore(at(name, 'runs.db'));
      await s.open();
      await s.close();
    }
    writeFileSync(at('bad-session', 'runs.db.stdio-session'), 'not a session id\n');
    mkdirSync(at('unreadable-session', 'runs.db.stdio-session'));
    mkdirSync(at('dangling'));
    symlinkSync(at('dangling', 'nowhere'), at('dangling', 'runs.db.stdio-session'));
    writeFileSync(at('garbage.db'), 'this is not a database, only text that is long enough to be a header'.repeat(4));
    writeFileSync(at('broken.mjs'), "throw new Error('the module broke while loading');\n");
    writeFileSync(at('neither.mjs'), 'export const something = 1;\n');
    writeFileSync(at('bad-flow.mjs'), "export const flows = [{ name: 'Not A Flow' }];\n");
    writeFileSync(
      at('late.mjs'),
      "setTimeout(() => { throw new TypeError('late'); }, 50);\nexport const flows = [];\n",
    );
    writeFileSync(at('a-file'), 'not a folder\n');
    writeFileSync(at('other.json'), 'x');
    writeFileSync(at('garbage.json'), '{"not": "a release"}');
    writeFileSync(at('empty-tokens'), '\n\n');
    writeFileSync(at('short-tokens'), 'short\n');
    writeFileSync(
      at('many-tokens'),
      Array.from({ length: 1025 }, (_, i) => `token-${String(i).padStart(12, '0')}`).join('\n'),
    );
    mkdirSync(at('insecure', 'rimthan'), { recursive: true });
    writeFileSync(at('insecure', 'rimthan', 'signing-key.json'), '{}\n');
    chmodSync(at('insecure', 'rimthan', 'signing-key.json'), 0o644);
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise<void>((resolve) => busy.close(() => resolve()));
    rmSync(work, { recursive: true, force: true });
  });

  const scenarios = (): Scenario[] => [
    { row: 'missing command', args: [] },
    { row: 'missing <group> subcommand', args: ['runs'] },
    { row: 'unknown command: <words>', args: ['launch'] },
    { row: 'unknown command: <words>', args: ['registry', 'publish'] },
    {
      row: 'unknown option <option> (an argument that starts with - goes after --, as in: -- <option>)',
      args: ['serve', '--bogus'],
    },
    { row: '<option> needs a value', args: ['serve', '--port'] },
    { row: '<option> takes no value', args: ['serve', '--help=yes'] },
    { row: 'expected <what>', args: ['runs', 'get', '--store', store] },
    { row: 'the flow is named NAME@VERSION, e.g. release_notes@v1', args: ['runs', 'graph', 'release_notes'] },
    { row: 'no flow <flow> in the catalog; known flows: <flows>', args: ['runs', 'graph', 'nope@v1'] },
    { row: 'expected <what>', args: ['runs', 'session-id', 'a-token-on-the-command-line'], secret: 'a-token-on-the' },
    { row: '--<option> must be one of <choices>', args: ['serve', '--transport', 'carrier-pigeon'] },
    { row: '--<option> must be an integer from <min> to <max>', args: ['serve', '--port', '99999'] },
    { row: '--<option> applies only to <what>', args: ['serve', '--session', 'x'] },
    { row: 'RIMTHAN_LOG_FORMAT must be text or json', args: ['serve'], env: { RIMTHAN_LOG_FORMAT: 'xml' } },
    {
      row: 'OTEL_<variable> must be <what>',
      args: ['serve'],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    },
    { row: 'unexpected argument: <argument>', args: ['serve', 'extra'] },
    { row: '--out FILE is required', args: ['registry', 'build', SOURCE] },
    { row: '--workflow ID is required', args: ['registry', 'init', at('init-none')] },
    {
      row: '--workflow <id> is not a kebab-case id of at most <n> characters (lowercase letters and digits in words joined by single hyphens, starting with a letter)',
      args: ['registry', 'init', at('init-bad'), '--workflow', 'Plan_Work'],
    },
    {
      row: '<folder> is not empty: registry init writes a new source folder',
      args: ['registry', 'init', at('existing'), '--workflow', 'plan-work'],
    },
    {
      row: '<path> is not a folder (<what> is a folder)',
      args: ['registry', 'init', at('a-file'), '--workflow', 'plan-work'],
    },
    {
      row: '--<option> cannot be used with --source',
      args: ['serve', '--source', SOURCE, '--releases', at('existing')],
    },
    {
      row: '--source serves on loopback only (127.0.0.1, localhost or ::1), not <host>',
      args: ['serve', '--source', SOURCE, '--transport', 'http', '--host', '0.0.0.0'],
    },
    { row: '<path> is not a folder (<what> is a folder)', args: ['serve', '--source', at('a-file')] },
    {
      row: '--session ID is required: runs are session-scoped, and no stdio session is kept for <store>',
      args: ['runs', 'list', '--store', store],
    },
    {
      row: 'serving on <host> needs participant authentication (--token-file, RIMTHAN_MCP_BEARER_TOKEN, or --oauth-issuer with --oauth-audience and --oauth-jwks); without it, serve on 127.0.0.1',
      args: ['serve', '--profile', 'runs', '--transport', 'http', '--host', '0.0.0.0', '--store', store],
    },
    {
      row: 'serving on <host> needs participant authentication (--token-file, RIMTHAN_MCP_BEARER_TOKEN, or --oauth-issuer with --oauth-audience and --oauth-jwks); without it, serve on 127.0.0.1',
      args: ['serve', '--transport', 'http', '--host', '0.0.0.0'],
    },
    {
      row: 'serving on <host> needs RIMTHAN_WORKFLOW_SIGNING_SECRET (and RIMTHAN_WORKFLOW_SIGNING_KEY_ID) from the environment, shared by every replica; without it, serve on 127.0.0.1',
      args: ['serve', '--transport', 'http', '--host', '0.0.0.0'],
      env: { RIMTHAN_MCP_BEARER_TOKEN: 'a-participant-token-0123456789' },
      secret: 'a-participant-token-0123456789',
    },
    {
      row: 'serving on <host> needs RIMTHAN_WORKFLOW_SIGNING_SECRET (and RIMTHAN_WORKFLOW_SIGNING_KEY_ID) from the environment, shared by every replica; without it, serve on 127.0.0.1',
      args: ['serve', '--profile', 'runs', '--transport', 'http', '--host', '0.0.0.0', '--store', store],
      env: { RIMTHAN_MCP_BEARER_TOKEN: 'a-participant-token-0123456789' },
      secret: 'a-participant-token-0123456789',
    },
    {
      row: 'OAuth needs <settings> as well',
      args: ['serve', '--transport', 'http', '--oauth-issuer', 'https://idp.example.test'],
    },
    {
      row: 'cannot read <setting> <file> (<code>)',
      args: [
        'serve',
        '--transport',
        'http',
        '--oauth-issuer',
        'https://idp.example.test',
        '--oauth-audience',
        'https://rimthan.example.test/mcp',
        '--oauth-jwks',
        at('no-jwks.json'),
      ],
    },
    {
      row: 'cannot fetch <setting> <origin> (unreachable)',
      args: ['serve', '--transport', 'http'],
      env: {
        RIMTHAN_OAUTH_ISSUER: 'https://idp.example.test',
        RIMTHAN_OAUTH_AUDIENCE: 'https://rimthan.example.test/mcp',
        RIMTHAN_OAUTH_JWKS: 'http://127.0.0.1:1/jwks.json',
      },
    },
    {
      row: '<setting> must be an https:// URL (http:// only on a loopback host)',
      args: [
        'serve',
        '--transport',
        'http',
        '--oauth-issuer',
        'http://idp.example.test',
        '--oauth-audience',
        'https://rimthan.example.test/mcp',
        '--oauth-jwks',
        at('no-jwks.json'),
      ],
    },
    {
      row: 'cannot open the run store <store>: <reason>',
      args: ['runs', 'list', '--session', 's', '--store', at('garbage.db')],
    },
    {
      row: 'cannot open the run store <store>: <reason>',
      args: ['runs', 'list', '--session', 's', '--store', 'postgres://rimthan:s3cret-pw@127.0.0.1:1/runs'],
      secret: 's3cret-pw',
    },
    {
      row: 'no run store at <store>: <why> (check --store; `rimthan serve --profile runs` creates one)',
      args: ['runs', 'list', '--session', 's', '--store', at('typo', 'dir', 'runs.db')],
    },
    { row: '--store <store>: <reason>', args: ['runs', 'list', '--session', 's', '--store', 'ftp://host/runs'] },
    {
      row: 'cannot load --flows module <module>: <reason>',
      args: ['runs', 'list', '--session', 's', '--store', store, '--flows', at('broken.mjs')],
    },
    {
      row: 'cannot load --flows module <module>: <reason>',
      args: ['runs', 'list', '--session', 's', '--store', store, '--flows', at('missing.mjs')],
    },
    {
      row: '--flows module <module> exports neither `flows` nor a default FlowCatalog',
      args: ['runs', 'list', '--session', 's', '--store', store, '--flows', at('neither.mjs')],
    },
    {
      row: '--flows module <module>: flows[<index>] is refused: <reason>',
      args: ['runs', 'list', '--session', 's', '--store', store, '--flows', at('bad-flow.mjs')],
    },
    {
      row: 'cannot listen on <address>: <reason>',
      args: ['serve', '--transport', 'http', '--port', String(busyPort)],
    },
    { row: '<path> does not exist', args: ['serve', '--releases', at('no-releases')] },
    { row: '<path> is not a folder (<what> is a folder)', args: ['serve', '--releases', at('a-file')] },
    { row: '<path> does not exist', args: ['registry', 'check', at('no', 'such', 'dir')] },
    { row: '<path> does not exist', args: ['registry', 'graph', at('no-such-release.json')] },
    { row: '<path> is not a folder (<what> is a folder)', args: ['registry', 'check', at('a-file')] },
    { row: '<count> problem<s> in <folder>', args: ['registry', 'check', at('existing')] },
    {
      row: '<file> already exists with different content (release files are immutable)',
      args: ['registry', 'build', SOURCE, '--out', at('other.json')],
    },
    { row: '<path> is not a valid release file (<reason>)', args: ['registry', 'graph', at('garbage.json')] },
    { row: 'no workflow <workflow> in release <release>', args: ['registry', 'graph', SOURCE, '--workflow', 'nope'] },
    { row: 'no workflow <workflow> in release <release>', args: ['registry', 'test', SOURCE, '--workflow', 'nope'] },
    {
      row: '<count> problem<s> in <folder>: fix them (rimthan registry check) before testing',
      args: ['registry', 'test', at('existing')],
    },
    {
      row: 'registry test failed in <folder>: <why>',
      args: ['registry', 'test', join(ROOT, 'releases', 'src', 'research-decision-1.2'), '--min-coverage', '1'],
    },
    {
      row: 'cannot read --token-file <file>: <reason>',
      args: ['serve', '--transport', 'http', '--token-file', at('no-tokens')],
    },
    { row: '<source> holds no token', args: ['serve', '--transport', 'http', '--token-file', at('empty-tokens')] },
    { row: '<source> holds no token', args: ['runs', 'session-id'], input: '' },
    {
      row: '<source> line <n>: a bearer token must be 16 to 4096 printable ASCII characters without spaces',
      args: ['runs', 'session-id', '--token-file', at('short-tokens')],
    },
    {
      row: '<source> holds more than 1024 tokens',
      args: ['serve', '--transport', 'http', '--token-file', at('many-tokens')],
    },
    {
      row: 'RIMTHAN_MCP_BEARER_TOKEN must be 16 to 4096 printable ASCII characters without spaces',
      args: ['serve', '--transport', 'http'],
      env: { RIMTHAN_MCP_BEARER_TOKEN: 'short secret' },
      secret: 'short secret',
    },
    {
      row: 'RIMTHAN_MCP_MAX_REQUEST_BYTES must be an integer from 1024 to 268435456',
      args: ['serve'],
      env: { RIMTHAN_MCP_MAX_REQUEST_BYTES: '5' },
    },
    {
      row: 'RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE must be a duration from 1m to 3650d, such as 30d, 12h or 90m',
      args: ['serve'],
      env: { RIMTHAN_WORKFLOW_CHECKPOINT_MAX_AGE: '30 days' },
    },
    { row: 'stdin holds more than <n> bytes', args: ['runs', 'session-id'], input: 'x'.repeat(4_300_000) },
    {
      row: '<file> does not hold a session id (1 to 256 printable characters); fix it, or pass --session',
      args: ['runs', 'list', '--store', at('bad-session', 'runs.db')],
    },
    {
      row: 'cannot read the stdio session <file>: <reason>',
      args: ['runs', 'list', '--store', at('unreadable-session', 'runs.db')],
    },
    {
      row: 'cannot keep the stdio session in <file>: <reason>',
      args: ['serve', '--profile', 'runs', '--store', at('dangling', 'runs.db')],
    },
    {
      row: 'the working directory does not exist any more',
      args: [],
      run: () => {
        const script = 'mkdir "$1" && cd "$1" && rmdir "$1" && exec "$2" "$3" registry check .';
        const r = spawnSync('/bin/sh', ['-c', script, 'sh', at('gone'), process.execPath, MAIN], {
          env: { PATH: process.env['PATH'] ?? '', HOME: work, XDG_STATE_HOME: work },
          encoding: 'utf8',
        });
        return { status: r.status, stderr: r.stderr };
      },
    },
    { row: '--<option> needs --admin-port', args: ['serve', '--transport', 'http', '--admin-host', '127.0.0.1'] },
    {
      row: '--admin-port needs --releases DIR or --releases postgres://… (the packaged releases are read-only)',
      args: ['serve', '--transport', 'http', '--admin-port', '0'],
    },
    {
      row: 'an admin listener needs admin credentials: --admin-token-file FILE or RIMTHAN_ADMIN_BEARER_TOKEN',
      args: ['serve', '--transport', 'http', '--releases', at('existing'), '--admin-port', '0'],
    },
    { row: '--releases <store>: <reason>', args: ['serve', '--releases', 'mysql://db.example/releases'] },
    {
      row: 'cannot open the release store <store>: <reason>',
      args: ['serve', '--releases', 'postgres://rimthan:hunter2-secret@127.0.0.1:1/releases'],
      secret: 'hunter2-secret',
    },
    {
      row: '<reason>: publish and activate one (rimthan admin publish FILE, rimthan admin activate RELEASE)',
      args: ['serve', '--releases', at('existing')],
    },
    { row: '<code>: <message>', args: ['serve'], env: { RIMTHAN_WORKFLOW_SIGNING_SECRET: 'too short' } },
    { row: '<code>: <message>', args: ['serve'], env: { RIMTHAN_WORKFLOW_SIGNING_KEY_ID: 'laptop-1' } },
    { row: '<code>: <message>', args: ['serve'], env: { XDG_STATE_HOME: at('insecure') } },
    { row: 'cannot <operation> <path>: <reason> (<code>)', args: ['serve'], env: { XDG_STATE_HOME: at('a-file') } },
    { row: 'missing <group> subcommand', args: ['rollout'] },
    { row: 'unknown command: <words>', args: ['rollout', 'cursor'] },
    { row: 'expected <what>', args: ['rollout', 'codex', 'extra', '--url', ENDPOINT, '--out', at('rollout-new')] },
    {
      row: '--url URL is required (the MCP endpoint, e.g. https://mcp.example.org/mcp)',
      args: ['rollout', 'codex', '--out', at('rollout-new')],
    },
    { row: '--out DIR is required', args: ['rollout', 'claude-code', '--url', ENDPOINT] },
    {
      row: '--token-env must name an environment variable (letters, digits and _, not starting with a digit)',
      args: ['rollout', 'codex', '--url', ENDPOINT, '--out', at('rollout-new'), '--token-env', '1-TOKEN'],
    },
    {
      row: '--marketplace-source must be an absolute folder path, OWNER/REPO (GitHub) or a Git URL (https://… or git@host:path)',
      args: ['rollout', 'claude-code', '--url', ENDPOINT, '--out', at('rollout-new'), '--marketplace-source', 'a/b/c'],
    },
    {
      row: '--<option> applies only to <what>',
      args: ['rollout', 'claude-code', '--url', ENDPOINT, '--out', at('rollout-new'), '--oauth-client-id', 'x'],
    },
    {
      row: '--<option> applies only to <what>',
      args: ['rollout', 'codex', '--url', ENDPOINT, '--out', at('rollout-new'), '--oauth', '--token-env', 'T'],
    },
    {
      row: '--<option> must be an integer from <min> to <max>',
      args: [
        'rollout',
        'claude-code',
        '--url',
        ENDPOINT,
        '--out',
        at('rollout-new'),
        '--oauth',
        '--oauth-callback-port',
        '0',
      ],
    },
    {
      row: '<setting> must be an https:// URL (http:// only on a loopback host)',
      args: ['rollout', 'codex', '--url', 'http://mcp.example.org/mcp', '--out', at('rollout-new')],
    },
    {
      row: '<setting> must be an https:// URL (http:// only on a loopback host)',
      args: ['rollout', 'claude-code', '--url', 'mcp.example.org/mcp', '--out', at('rollout-new')],
    },
    {
      row: "--url must have no credentials, query or fragment (it is written into every participant's files): participants authenticate with --token-env or --oauth",
      args: [
        'rollout',
        'claude-code',
        '--url',
        'https://ann:s3cret-in-url@mcp.example.org/mcp',
        '--out',
        at('rollout-new'),
      ],
      secret: 's3cret-in-url',
    },
    {
      row: "--url must have no credentials, query or fragment (it is written into every participant's files): participants authenticate with --token-env or --oauth",
      args: ['rollout', 'codex', '--url', 'https://mcp.example.org/mcp?key=k3y-in-query', '--out', at('rollout-new')],
      secret: 'k3y-in-query',
    },
    {
      row: '<dir> is not empty: choose a new or empty folder, or pass --force to overwrite the files rollout writes there',
      args: ['rollout', 'codex', '--url', ENDPOINT, '--out', at('existing')],
    },
    {
      row: '<path> is not a folder (<what> is a folder)',
      args: ['rollout', 'codex', '--url', ENDPOINT, '--out', at('a-file')],
    },
    {
      row: 'cannot <operation> <path>: <reason> (<code>)',
      args: ['rollout', 'claude-code', '--url', ENDPOINT, '--out', at('a-file', 'plugin')],
    },
    {
      row: 'unexpected failure: <kind> (run again as `rimthan --debug <command> ...` for the stack)',
      args: ['runs', 'list', '--session', 's', '--store', store, '--flows', at('late.mjs')],
    },
  ];

  test('every documented row is produced, with its exit code, in one line without a stack', () => {
    const rows = rowsOfTable();
    assert.ok(rows.length >= 40, `the table has ${rows.length} rows`);
    const covered = new Set<string>();
    for (const s of scenarios()) {
      const row = rows.find((r) => r.template === s.row);
      assert.ok(row !== undefined, `docs/cli.md has no row ${s.row}`);
      const result =
        s.run?.() ??
        (() => {
          const r = spawnSync(process.execPath, [MAIN, ...s.args], {
            cwd: work,
            env: { PATH: process.env['PATH'] ?? '', HOME: work, XDG_STATE_HOME: at('state'), ...s.env },
            input: s.input ?? '',
            encoding: 'utf8',
            timeout: 120_000,
          });
          return { status: r.status, stderr: `${r.stderr}${r.signal === null ? '' : ` (killed by ${r.signal})`}` };
        })();
      const shown = `rimthan ${s.args.join(' ')}`.slice(0, 200);
      assert.equal(result.status, row.exit, `${shown}: ${result.stderr}`);
      const lines = result.stderr.replace(/\n$/, '').split('\n');
      const message = lines.find((l) => l.startsWith('rimthan: ') && !/^rimthan: (generated|signing)/.test(l));
      assert.ok(message !== undefined, `${shown}: no message in ${result.stderr}`);
      assert.match(message.slice('rimthan: '.length), row.pattern, `${shown}`);
      const rest = lines.filter((l) => l !== message && !/^rimthan: (generated|signing)/.test(l));
      assert.deepEqual(rest, row.exit === 2 ? [rest[0] ?? ''] : [], `${shown}: one line`);
      if (row.exit === 2) assert.match(rest[0] ?? '', /^See: rimthan( [a-z -]+)? --help$/);
      assert.doesNotMatch(result.stderr, /\n\s+at /, `${shown}: no stack`);
      if (s.secret !== undefined) assert.ok(!result.stderr.includes(s.secret), `${shown}: the secret is not shown`);
      covered.add(row.template);
    }
    assert.deepEqual(
      rows.filter((r) => !covered.has(r.template)).map((r) => r.template),
      [],
      'every row has a scenario',
    );
  });

  test('an operator command on a mistyped store creates nothing', () => {
    const result = spawnSync(process.execPath, [MAIN, 'runs', 'list', '--store', at('typo2', 'x.db')], {
      cwd: work,
      encoding: 'utf8',
    });
    assert.equal(result.status, 1);
    assert.throws(() => readFileSync(at('typo2', 'x.db')), { code: 'ENOENT' });
    assert.throws(() => readFileSync(at('typo2')), { code: 'ENOENT' });
  });
});

/** Runs the real executable without blocking this process (the hostile servers answer from it). */
function spawnCli(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<{ status: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd, XDG_STATE_HOME: join(cwd, 'state'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (status) => resolve({ status, stderr, stdout }));
  });
}

describe('docs/cli.md: every message about what a server sends, from the real executable against hostile servers', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-hostile-messages-'));
  const ADMIN_TOKEN = 'hostile-admin-token-0123456789abcdef';
  let admin: Listening;
  let mcp: Listening;
  let proxy: Listening;
  let served: Served;

  before(async () => {
    admin = await hostileAdmin();
    mcp = await hostileMcp();
    mkdirSync(join(work, 'state'));
    served = await httpServer(join(work, 'state'));
    const upstream = served.target.kind === 'http' ? served.target.url : '';
    proxy = await rewritingProxy(upstream, (scenario, rpc, answer) => {
      const params = rpc.params as { name?: string } | undefined;
      if (rpc.method !== 'tools/call' || params?.name !== 'rimthan.continue_workflow') return answer;
      const result = answer['result'] as { structuredContent?: { step?: { host_assets?: JsonObject[] } } };
      const local = result.structuredContent?.step?.host_assets?.find((a) => a['project_local'] !== null);
      if (local === undefined) return answer;
      const path = scenario === 'dotdot' ? '../outside.md' : scenario === 'long' ? 'x'.repeat(250) : undefined;
      if (path !== undefined) (local['project_local'] as JsonObject)['path'] = path;
      return answer;
    });
  });
  after(async () => {
    await proxy.close();
    await served.close();
    await mcp.close();
    await admin.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('every row is produced, with its exit code, in one line, escaped, without a stack', async () => {
    const rows = documentedRows(
      readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8'),
      'Messages about what a server sends',
    );
    const adminRun =
      (scenario: string, ...extra: string[]): (() => ReturnType<typeof spawnCli>) =>
      () =>
        spawnCli(['admin', 'list', '--url', `${admin.url}/${scenario}`, ...extra], work, {
          RIMTHAN_ADMIN_BEARER_TOKEN: ADMIN_TOKEN,
        });
    const start =
      (scenario: string, ...extra: string[]): (() => ReturnType<typeof spawnCli>) =>
      () => {
        const dir = mkdtempSync(join(work, `${scenario}-`));
        return spawnCli(
          [
            'participant',
            'start',
            '--workflow',
            'w',
            '--harness',
            'codex',
            '--yes',
            '--url',
            `${mcp.url}/${scenario}/mcp`,
          ]
            .concat(extra.includes('--no-adapter') ? [] : ['--adapter', 'a@1.0.0'])
            .concat(extra.filter((e) => e !== '--no-adapter')),
          dir,
        );
      };
    const tokenFile = join(work, 'token');
    const assets =
      (scenario: string): (() => ReturnType<typeof spawnCli>) =>
      async () => {
        const dir = mkdtempSync(join(work, `${scenario}-`));
        writeFileSync(tokenFile, `${served.target.kind === 'http' ? (served.target.token ?? '') : ''}\n`, {
          mode: 0o600,
        });
        const through = ['--url', `${proxy.url}/${scenario}/mcp`, '--token-file', tokenFile];
        const started = await spawnCli(
          [
            'participant',
            'start',
            '--workflow',
            'research',
            ...HOST,
            '--set',
            'objective=Pick a queue',
            '--yes',
            ...through,
          ],
          dir,
        );
        assert.equal(started.status, 0, started.stderr);
        return spawnCli(['participant', 'write-assets', ...through], dir);
      };
    const scenarios: { row: string; run: () => ReturnType<typeof spawnCli> }[] = [
      {
        row: '--timeout takes seconds, more than 0 and at most 3600 (e.g. 30)',
        run: adminRun('shape', '--timeout', '0'),
      },
      {
        row: 'the Admin API at <url> did not answer within <seconds> seconds (wait longer with --timeout SECONDS)',
        run: adminRun('stall', '--timeout', '0.5'),
      },
      {
        row: 'the Admin API at <url> did not answer within <seconds> seconds (wait longer with --timeout SECONDS)',
        run: adminRun('stall-body', '--timeout', '0.5'),
      },
      {
        row: 'the Admin API at <url> redirects to <location> (HTTP <status>); redirects are not followed: give the final URL as --url',
        run: adminRun('redirect'),
      },
      {
        row: 'the Admin API at <url> sent an answer larger than <bytes> bytes (HTTP <status>)',
        run: adminRun('huge'),
      },
      {
        row: 'the Admin API at <url> sent an answer that is not JSON (<reason>, HTTP <status>)',
        run: adminRun('deep'),
      },
      {
        row: 'the Admin API at <url> sent an answer that is not JSON (<reason>, HTTP <status>)',
        run: adminRun('html'),
      },
      {
        row: 'the Admin API at <url> sent an answer of the wrong shape (<answer> at <schema path>, HTTP <status>)',
        run: adminRun('shape'),
      },
      {
        row: 'the Admin API at <url> sent an answer of the wrong shape (<answer> at <schema path>, HTTP <status>)',
        run: adminRun('extra'),
      },
      {
        row: '<server> did not answer within <seconds> seconds (wait longer with --timeout SECONDS)',
        run: start('stall', '--timeout', '0.5'),
      },
      {
        row: '<server> answered with a redirect (HTTP <status>); redirects are not followed: give the final URL',
        run: start('redirect'),
      },
      { row: '<server> sent an answer larger than <bytes> bytes', run: start('huge') },
      { row: '<server> sent an answer that is not MCP', run: start('not-mcp') },
      { row: '<server> failed a request: <reason>', run: start('rpc-error') },
      { row: '<server> broke off the exchange: <reason>', run: start('hangup') },
      {
        row: 'the server sent an answer to <tool> that does not have the documented shape (at <schema path>)',
        run: start('shape'),
      },
      { row: 'the server sent an answer to <tool> that nests deeper than 64 levels', run: start('deep') },
      {
        row: 'the server sent <uri> that is not one JSON document (<reason>)',
        run: start('resource', '--no-adapter'),
      },
      { row: 'the project-local path of <asset> "<path>" <problem>', run: assets('dotdot') },
      { row: '"<path>" is longer than the file system allows (ENAMETOOLONG)', run: assets('long') },
    ];
    const covered = new Set<string>();
    for (const s of scenarios) {
      const row = rows.find((r) => r.template === s.row);
      assert.ok(row !== undefined, `docs/cli.md has no row ${s.row}`);
      const result = await s.run();
      const lines = result.stderr.replace(/\n$/, '').split('\n');
      const message = lines[0] ?? '';
      assert.equal(result.status, row.exit, `${s.row}: ${result.stderr}`);
      assert.ok(message.startsWith('rimthan: '), `${s.row}: ${result.stderr}`);
      assert.match(message.slice('rimthan: '.length), row.pattern, s.row);
      assert.deepEqual(lines.slice(1), row.exit === 2 ? [lines[1] ?? ''] : [], `${s.row}: one line`);
      assert.doesNotMatch(result.stderr, /unexpected failure|\n\s+at /, s.row);
      // eslint-disable-next-line no-control-regex -- no control character reaches the terminal
      assert.doesNotMatch(`${result.stdout}${result.stderr}`, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u, s.row);
      assert.ok(result.stdout.length + result.stderr.length < 10_000, `${s.row}: bounded output`);
      assert.ok(!result.stderr.includes(ADMIN_TOKEN), 'no token');
      covered.add(row.template);
    }
    assert.deepEqual(
      rows.filter((r) => !covered.has(r.template)).map((r) => r.template),
      [],
      'every row has a scenario',
    );
  });
});
