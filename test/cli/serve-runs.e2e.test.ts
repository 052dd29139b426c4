/** `rimthan serve --profile runs` over stdio, with flows loaded from a module (spec: run-tools.md). */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { JsonObject } from '../../src/core/index.js';
import { RIMTHAN_GITIGNORE } from '../../src/cli/run-store.js';
import { runCli } from '../../src/cli/run.js';
import { callTool } from '../mcp/support/connect.js';
import { captureIo } from './support.js';
import { writeGreetingFlows } from '../support/greeting-flow.js';
import { stdioServe } from '../support/serve-process.js';
import type { StdioServe } from '../support/serve-process.js';

describe('rimthan serve --profile runs', () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-serve-runs-'));
  const flows = writeGreetingFlows(join(work, 'flows.mjs'));
  const store = `sqlite:${join(work, 'runs.db')}`;
  after(() => rmSync(work, { recursive: true, force: true }));

  test('serves the seven run tools over stdio for the configured session, with flows from --flows', async () => {
    const { client } = await stdioServe(['--profile', 'runs', '--store', store, '--flows', flows, '--session', 'ops'], {
      env: { HOME: work },
      name: 'runs-stdio',
    });
    let runId: string;
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 7);
      const listed = await callTool(client, 'workflow_definition_list', {});
      const names = (listed.value['definitions'] as JsonObject[]).map((d) => d['name']);
      assert.deepEqual(names, ['greeting_flow']);
      const started = await callTool(client, 'workflow_run_start', {
        definition_name: 'greeting_flow',
        definition_version: 'v1',
        input: { name: 'Ada' },
      });
      assert.equal(started.isError, false, JSON.stringify(started.value));
      runId = started.value['run_id'] as string;
    } finally {
      await client.close();
    }
    // The operator CLI sees the run in the same session and store.
    const io = captureIo(work);
    assert.equal(await runCli(['runs', 'get', runId, '--store', store, '--session', 'ops', '--flows', flows], io), 0);
    assert.equal((JSON.parse(io.stdout.join('\n')) as JsonObject)['run_id'], runId);
    const other = captureIo(work);
    assert.equal(
      await runCli(['runs', 'get', runId, '--store', store, '--session', 'guest', '--flows', flows], other),
      1,
    );
  });

  test('without --session, stdio keeps one session beside the store (0600): a restarted agent sees its runs', async () => {
    const project = join(work, 'project');
    mkdirSync(project);
    const serve = (extra: string[]): Promise<StdioServe> =>
      stdioServe(['--profile', 'runs', '--flows', flows, ...extra], {
        cwd: project,
        env: { HOME: work },
        name: 'runs-restart',
      });
    const first = await serve([]);
    let runId: string;
    try {
      const started = await callTool(first.client, 'workflow_run_start', {
        definition_name: 'greeting_flow',
        definition_version: 'v1',
        input: { name: 'Ada' },
      });
      runId = started.value['run_id'] as string;
    } finally {
      await first.client.close();
    }
    const sessionFile = join(project, '.rimthan', 'runs.db.stdio-session');
    assert.equal(statSync(sessionFile).mode & 0o777, 0o600);
    const session = readFileSync(sessionFile, 'utf8').trim();
    assert.match(session, /^stdio-[0-9a-f-]{36}$/);
    assert.match(first.stderr(), new RegExp(`runs session ${session} \\(generated and kept in `));

    const restarted = await serve([]);
    try {
      const got = await callTool(restarted.client, 'workflow_run_get', { run_id: runId });
      assert.equal(got.isError, false, JSON.stringify(got.value));
      assert.equal(got.value['run_id'], runId);
    } finally {
      await restarted.client.close();
    }
    assert.match(restarted.stderr(), new RegExp(`runs session ${session} \\(kept in `));

    const other = await serve(['--session', 'someone-else']);
    try {
      const got = await callTool(other.client, 'workflow_run_get', { run_id: runId });
      assert.equal(got.isError, true, '--session overrides the kept session');
    } finally {
      await other.client.close();
    }
    assert.equal(readFileSync(sessionFile, 'utf8').trim(), session, '--session leaves the kept session alone');

    // The operator commands default to the kept session, and read it without creating anything.
    const io = captureIo(project);
    assert.equal(await runCli(['runs', 'get', runId, '--flows', flows], io), 0, io.stderr.join('\n'));
    assert.equal((JSON.parse(io.stdout.join('\n')) as JsonObject)['run_id'], runId);
  });

  test('the store in .rimthan/ gets a .gitignore: Git ignores the database, its WAL and the session, not the participant file', () => {
    const project = join(work, 'project');
    const gitignore = readFileSync(join(project, '.rimthan', '.gitignore'), 'utf8');
    assert.equal(gitignore, RIMTHAN_GITIGNORE);
    execFileSync('git', ['-C', project, 'init', '--quiet']);
    writeFileSync(join(project, '.rimthan', 'workflow-session.json'), '{}\n');
    writeFileSync(join(project, '.rimthan', 'runs.db-wal'), '');
    const ignored = (path: string): boolean =>
      spawnSync('git', ['-C', project, 'check-ignore', '--quiet', path]).status === 0;
    for (const path of ['runs.db', 'runs.db-wal', 'runs.db.stdio-session']) {
      assert.equal(ignored(`.rimthan/${path}`), true, `${path} is ignored`);
    }
    assert.equal(ignored('.rimthan/workflow-session.json'), false, 'the participant session file is committable');
    assert.equal(ignored('.rimthan/.gitignore'), false);
  });

  test('an existing .rimthan/.gitignore is never overwritten', async () => {
    const project = join(work, 'own-ignore');
    mkdirSync(join(project, '.rimthan'), { recursive: true });
    writeFileSync(join(project, '.rimthan', '.gitignore'), 'mine\n');
    const { client } = await stdioServe(['--profile', 'runs', '--flows', flows], {
      cwd: project,
      env: { HOME: work },
      name: 'own-ignore',
    });
    await client.close();
    assert.equal(readFileSync(join(project, '.rimthan', '.gitignore'), 'utf8'), 'mine\n');
    assert.ok(existsSync(join(project, '.rimthan', 'runs.db')));
  });
});
