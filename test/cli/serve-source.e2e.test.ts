/**
 * `rimthan serve --source DIR`, the authoring inner loop, against the real executable: a scaffolded source is served
 * as a development build; an edit is picked up as a new build under its own release name while a session started on
 * the first build keeps resuming on it; a broken edit keeps the last good build serving and prints its problems as
 * file:line; and the option never listens beyond loopback.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonObject } from '../../src/core/index.js';
import { scaffoldSource } from '../../src/registry/scaffold/init-source.js';
import { callTool } from '../mcp/support/connect.js';
import { confirmed, LIBRARY_HOST, Participant } from '../mcp/support/participant.js';
import { MAIN, spawnServe } from '../support/serve-process.js';
import type { ServeProcess } from '../support/serve-process.js';

const WORKFLOW = 'plan-work';
const WORKFLOW_FILE = `workflows/${WORKFLOW}@0.1.0.yaml`;
const GOAL = 'Generate the nightly sales report from the read replica instead of the primary database';

/** Waits until `predicate` holds on the server's stderr (the test runner's timeout bounds it). */
async function stderrShows(serve: ServeProcess, pattern: RegExp): Promise<RegExpExecArray> {
  for (;;) {
    const m = pattern.exec(serve.stderr());
    if (m !== null) return m;
    await sleep(25);
  }
}

function releaseOf(result: JsonObject): string {
  return (result['checkpoint'] as JsonObject)['registry_release'] as string;
}

describe('rimthan serve --source', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-serve-source-'));
  const source = join(work, 'source');
  const env = { HOME: work, XDG_STATE_HOME: join(work, 'state') };
  let serve: ServeProcess;
  let client: Client;
  let participant: Participant;
  let firstBuild = '';

  before(async () => {
    for (const file of scaffoldSource(WORKFLOW, source).files) {
      const path = join(source, file.rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    }
    serve = await spawnServe(['--source', source, '--transport', 'http', '--port', '0'], env);
    client = new Client({ name: 'serve-source-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url)));
    participant = new Participant((name, args) => callTool(client, name, args), {
      ...LIBRARY_HOST,
      validator_capabilities: ['workspace.read'],
    });
    participant.state = confirmed({ goal: GOAL });
  });
  after(async () => {
    await client?.close();
    await serve?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('serves the source as a development build named <release>-dev.<digest8>', async () => {
    const printed = await stderrShows(serve, /serving \S+ as release (plan-work-0\.1\.0-dev\.[0-9a-f]{8}) /);
    firstBuild = printed[1] ?? '';
    const started = await participant.start(WORKFLOW);
    assert.equal(releaseOf(started), firstBuild);
    assert.equal(participant.currentStep, 'setup-workspace');
  });

  test('an edit becomes a new build; the session started on the first build keeps resuming on it', async () => {
    const path = join(source, WORKFLOW_FILE);
    writeFileSync(path, readFileSync(path, 'utf8').replace('title: Plan a piece of work', 'title: Plan the work'));
    const rebuilt = await stderrShows(
      serve,
      /rebuilt \S+: serving (plan-work-0\.1\.0-dev\.[0-9a-f]{8}) \(sessions on (\S+) keep/,
    );
    const secondBuild = rebuilt[1] ?? '';
    assert.notEqual(secondBuild, firstBuild);
    assert.equal(rebuilt[2], firstBuild);

    const fresh = new Participant((name, args) => callTool(client, name, args), participant.hostOverrides);
    fresh.state = confirmed({ goal: GOAL });
    assert.equal(releaseOf(await fresh.start(WORKFLOW)), secondBuild, 'a new session starts on the new build');

    const resumed = await participant.continue();
    assert.equal(resumed['status'], 'active');
    assert.equal(releaseOf(resumed), firstBuild, 'the old session resumes on the build it started on');
    await participant.prepare();
  });

  test('a broken edit keeps the last good build serving and prints its problems as file:line', async () => {
    const path = join(source, WORKFLOW_FILE);
    const before = serve.stderr().length;
    const text = readFileSync(path, 'utf8');
    const broken = text.replace('start_step: setup-workspace\n', 'start_step: setup-workspace\nowner: platform\n');
    writeFileSync(path, broken);
    const line = broken.split('\n').indexOf('owner: platform') + 1;
    await stderrShows(serve, /problem in \S+: still serving (\S+)/);
    const printed = serve.stderr().slice(before);
    assert.ok(printed.includes(`rimthan: ${WORKFLOW_FILE}:${line}: unknown_key: unknown key "owner"`), printed);
    const still = /still serving (\S+)/.exec(printed)?.[1] ?? '';
    const fresh = new Participant((name, args) => callTool(client, name, args), participant.hostOverrides);
    fresh.state = confirmed({ goal: GOAL });
    assert.equal(releaseOf(await fresh.start(WORKFLOW)), still);
  });

  test('a source that does not check at start serves nothing until an edit fixes it', async () => {
    const broken = join(work, 'broken');
    for (const file of scaffoldSource(WORKFLOW, broken).files) {
      const path = join(broken, file.rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.text);
    }
    const path = join(broken, WORKFLOW_FILE);
    const good = readFileSync(path, 'utf8');
    writeFileSync(path, good.replace('title: Plan a piece of work', 'title: [Plan, a, piece, of, work]'));
    const second = await spawnServe(['--source', broken, '--transport', 'http', '--port', '0'], env);
    try {
      assert.match(
        second.stderr(),
        /rimthan: workflows\/plan-work@0\.1\.0\.yaml:\d+: invalid_type: title must be a string\n/,
      );
      assert.match(second.stderr(), /1 problem in \S+: nothing served until it checks/);
      writeFileSync(path, good);
      await stderrShows(second, /serving \S+ as release plan-work-0\.1\.0-dev\.[0-9a-f]{8} /);
      const other = new Client({ name: 'serve-source-test', version: '1.0.0' });
      await other.connect(new StreamableHTTPClientTransport(new URL(second.url)));
      try {
        const p = new Participant((name, args) => callTool(other, name, args), participant.hostOverrides);
        p.state = confirmed({ goal: GOAL });
        assert.match(releaseOf(await p.start(WORKFLOW)), /^plan-work-0\.1\.0-dev\.[0-9a-f]{8}$/);
      } finally {
        await other.close();
      }
    } finally {
      await second.stop();
    }
  });

  test('refuses to listen beyond loopback, and a release store or Admin API beside it', () => {
    const run = (...args: string[]): { status: number | null; stderr: string } =>
      spawnSync(process.execPath, [MAIN, 'serve', '--source', source, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '', ...env },
      });
    const wide = run('--transport', 'http', '--host', '0.0.0.0');
    assert.equal(wide.status, 2);
    assert.match(
      wide.stderr,
      /^rimthan: --source serves on loopback only \(127\.0\.0\.1, localhost or ::1\), not 0\.0\.0\.0\n/,
    );
    const store = run('--releases', work);
    assert.equal(store.status, 2);
    assert.match(store.stderr, /^rimthan: --releases cannot be used with --source\n/);
  });
});
