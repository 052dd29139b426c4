/**
 * `rimthan serve` logging JSON (RIMTHAN_LOG_FORMAT=json or --log-format json) writes only JSON on stderr: every line
 * of real processes, the generated-key notice and the start-up refusals included, parses as one JSON object of a
 * documented event, and each refusal carries the same error code, words and exit code as its text line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const EVENTS = new Set(['start', 'stop', 'notice', 'refusal', 'fault']);
const TOKEN = 'json-stderr-participant-token-0123';

interface Run {
  readonly status: number | null;
  readonly stderr: string;
}

describe('rimthan serve with JSON logs: every stderr line is one JSON object', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-json-stderr-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  mkdirSync(join(work, 'a-folder'));
  writeFileSync(join(work, 'garbage.db'), 'this is not a database, only text long enough to be a header'.repeat(4));

  const serve = (args: readonly string[], env: Record<string, string> = {}, state = 'state'): Run => {
    const r = spawnSync(process.execPath, [MAIN, ...args], {
      cwd: work,
      env: { PATH: process.env['PATH'] ?? '', HOME: work, XDG_STATE_HOME: join(work, state), ...env },
      input: '',
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: r.status, stderr: r.stderr };
  };

  /** Every stderr line, parsed; fails on a line that is not one JSON object of a documented event. */
  const objects = (run: Run): Record<string, string>[] =>
    run.stderr
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        let parsed: unknown;
        assert.doesNotThrow(() => (parsed = JSON.parse(line)), `not JSON: ${line}`);
        assert.ok(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed), `not an object: ${line}`);
        const object = parsed as Record<string, string>;
        assert.ok(EVENTS.has(object['event'] ?? ''), `a documented event: ${line}`);
        assert.match(object['time'] ?? '', /^\d{4}-\d\d-\d\dT/);
        return object;
      });

  test('the generated-key notice, the start and the stop of a stdio serve', () => {
    const run = serve(['serve'], { RIMTHAN_LOG_FORMAT: 'json' }, 'fresh-state');
    assert.equal(run.status, 0, run.stderr);
    const lines = objects(run);
    const notice = lines.find(
      (l) => l['event'] === 'notice' && /generated a new signing key in/.test(l['message'] ?? ''),
    );
    assert.ok(notice, `the generated-key notice is a JSON notice: ${run.stderr}`);
    assert.equal(notice['level'], 'info');
    assert.doesNotMatch(notice['message'] ?? '', /^rimthan: /);
    assert.deepEqual(
      lines.filter((l) => l['event'] !== 'notice').map((l) => l['event']),
      ['start', 'stop'],
    );
  });

  const refusals: { readonly name: string; readonly args: readonly string[]; readonly env?: Record<string, string> }[] =
    [
      { name: 'an unknown option', args: ['serve', '--bogus'] },
      { name: 'a value out of range', args: ['serve', '--port', '99999'] },
      { name: 'an option of the other profile', args: ['serve', '--session', 'x'] },
      { name: 'beyond loopback without authentication', args: ['serve', '--transport', 'http', '--host', '0.0.0.0'] },
      {
        name: 'beyond loopback without the signing secret (runs)',
        args: ['serve', '--profile', 'runs', '--transport', 'http', '--host', '0.0.0.0'],
        env: { RIMTHAN_MCP_BEARER_TOKEN: TOKEN },
      },
      { name: 'a signing secret too short', args: ['serve'], env: { RIMTHAN_WORKFLOW_SIGNING_SECRET: 'too short' } },
      {
        name: 'a run store that is not a database',
        args: ['serve', '--profile', 'runs', '--store', 'sqlite:garbage.db'],
      },
      { name: 'a state folder that is a file', args: ['serve'], env: { XDG_STATE_HOME: join(work, 'garbage.db') } },
      { name: 'a bad request cap', args: ['serve'], env: { RIMTHAN_MCP_MAX_REQUEST_BYTES: '5' } },
    ];

  for (const r of refusals) {
    test(`a refusal (${r.name}) is one JSON object with the text line's code and words`, () => {
      const text = serve(r.args, r.env);
      const json = serve(r.args, { ...r.env, RIMTHAN_LOG_FORMAT: 'json' });
      assert.ok(text.status === 1 || text.status === 2, text.stderr);
      assert.equal(json.status, text.status, json.stderr);
      const lines = objects(json);
      const refusal = lines.filter((l) => l['event'] === 'refusal');
      assert.equal(refusal.length, 1, json.stderr);
      const [only] = refusal;
      assert.ok(only);
      assert.equal(only['level'], 'error');
      assert.match(only['code'] ?? '', /^[a-z_]+$|^E[A-Z]+$/);
      // The text line says the same: `rimthan: <message>` (a RimthanError's: `rimthan: <code>: <message>`).
      const said = text.stderr.split('\n')[0] ?? '';
      assert.ok(
        said === `rimthan: ${only['message'] ?? ''}` ||
          said === `rimthan: ${only['code'] ?? ''}: ${only['message'] ?? ''}`,
        `text "${said}" and JSON ${JSON.stringify(only)} differ`,
      );
      if (text.status === 2) assert.equal(only['help'], 'rimthan serve --help');
      assert.ok(!json.stderr.includes(TOKEN) && !json.stderr.includes('too short'), 'no secret on stderr');
    });
  }

  test('--log-format json on the command line asks for the same, its own parse refusals included', () => {
    const run = serve(['serve', '--log-format', 'json', '--port', 'x']);
    assert.equal(run.status, 2);
    assert.deepEqual(
      objects(run).map((l) => [l['event'], l['code']]),
      [['refusal', 'usage']],
    );
    const text = serve(['serve', '--log-format', 'text', '--port', 'x'], { RIMTHAN_LOG_FORMAT: 'json' });
    assert.match(text.stderr, /^rimthan: /, 'the option wins over the variable');
  });
});
