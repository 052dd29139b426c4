/**
 * Observability of real `rimthan serve` processes (issue 7): a whole research-decision workflow over Streamable HTTP
 * by an authenticated caller with a marker in its participant data, and a durable run of the runs profile with the
 * marker in its input; then `/admin/metrics` is scraped and stderr collected. Neither holds the marker, the principal,
 * a token or the run id, and the metrics count the calls by tool and status, the HTTP statuses, the releases, the
 * runs. A client that sends half a body and destroys its socket is counted as a client abort, never logged as an
 * internal fault. With `--log-format json` every event line is one JSON object of the documented events.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { packageRoot } from '../../src/package/index.js';
import { principalIdOf } from '../../src/identity/index.js';
import { ACTIVE_RELEASE, callTool, NEW_RELEASE, OLD_RELEASE, tempReleaseStore } from '../mcp/support/connect.js';
import { adminCall, eventually, httpClient, spawnServe } from '../support/serve-process.js';
import { researchSessionAt } from '../support/participant-drive.js';
import type { ServeProcess } from '../support/serve-process.js';
import { writeGreetingFlows } from '../support/greeting-flow.js';
import { sample, scrapeMetrics } from '../support/metrics-scrape.js';

const MARKER = 'obs-marker-5e0c2a91d7';
const TOKEN = 'obs-participant-token-7c41d0e9b2a6';
const ADMIN_TOKEN = 'obs-admin-token-3f9a62c1e8d4b7';
const SECRET = 'obs-test-secret-0123456789abcdef0123456789abcdef';
const PRINCIPAL = principalIdOf({ kind: 'bearer', token: TOKEN });
const ADMIN_PRINCIPAL = principalIdOf({ kind: 'bearer', token: ADMIN_TOKEN });
const EVENTS = new Set([
  'start',
  'release_change',
  'release_refresh_failed',
  'release_refresh_recovered',
  'fault',
  'stop',
]);

/** Every metric family any scrape showed (its `# TYPE` line), for the comparison with the deployment guide. */
const scraped = new Set<string>();

async function scrape(admin: string): Promise<string> {
  const text = await scrapeMetrics(admin, ADMIN_TOKEN);
  for (const m of text.matchAll(/^# TYPE (\S+) /gm)) scraped.add(m[1] ?? '');
  return text;
}

/** The metric names of the "What to monitor" table in docs/operations/deployment.md (`rimthan_nodejs_*`: a prefix). */
function documentedMetrics(): string[] {
  const doc = readFileSync(join(packageRoot(), 'docs', 'operations', 'deployment.md'), 'utf8');
  const section = doc.split(/^## What to monitor$/m)[1]?.split(/^## /m)[0] ?? '';
  const names: string[] = [];
  for (const row of section.split('\n').filter((l) => l.startsWith('| `rimthan_'))) {
    const first = row.split('|')[1] ?? '';
    for (const m of first.matchAll(/`(rimthan_[a-z_*]+)/g)) names.push(m[1] ?? '');
  }
  return names;
}

/** A client that sends the headers and half of a declared body, then resets its connection. */
async function halfBodyThenReset(url: string): Promise<void> {
  const { hostname, port, host } = new URL(url);
  await new Promise<void>((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Length: 400\r\n\r\n{"jsonrpc":"2.0","id":1,`,
      () => setTimeout(() => socket.resetAndDestroy(), 100),
    );
  });
}

/** What must never appear in metrics or logs. */
function assertClean(text: string, where: string, extra: readonly string[] = []): void {
  for (const secret of [MARKER, TOKEN, ADMIN_TOKEN, PRINCIPAL, ADMIN_PRINCIPAL, SECRET, ...extra]) {
    assert.ok(!text.includes(secret), `${where} holds ${secret.slice(0, 12)}…`);
  }
}

/** The JSON event lines of stderr; every line that is not a `rimthan: ` notice must be one. */
/** The event lines of a JSON stderr (every line is one JSON object; notices, such as the listen address, are skipped). */
function eventLines(stderr: string): Record<string, string>[] {
  const events: Record<string, string>[] = [];
  for (const line of stderr.split('\n')) {
    if (line === '') continue;
    const event = JSON.parse(line) as Record<string, string>;
    assert.match(event['time'] ?? '', /^\d{4}-\d\d-\d\dT/);
    if (event['event'] === 'notice') continue;
    assert.ok(EVENTS.has(event['event'] ?? ''), `a documented event: ${line}`);
    events.push(event);
  }
  return events;
}

describe('rimthan serve: metrics and logs after real workflows hold no participant data', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'rimthan-obs-'));
  const tokenFile = join(work, 'tokens');
  writeFileSync(tokenFile, `${TOKEN}\n`);
  const env = { RIMTHAN_ADMIN_BEARER_TOKEN: ADMIN_TOKEN, RIMTHAN_WORKFLOW_SIGNING_SECRET: SECRET };
  const running: ServeProcess[] = [];
  after(async () => {
    await Promise.all(running.map((p) => p.stop()));
    rmSync(work, { recursive: true, force: true });
  });

  test('workflow-engine: a whole research-decision workflow, a release change, a reset upload (JSON log lines)', async () => {
    const releases = tempReleaseStore(OLD_RELEASE);
    const serve = await spawnServe(
      [
        '--transport',
        'http',
        '--port',
        '0',
        '--releases',
        releases.dir,
        '--admin-port',
        '0',
        '--token-file',
        tokenFile,
        '--log-format',
        'json',
      ],
      env,
    );
    running.push(serve);
    const admin = serve.adminUrl ?? '';
    try {
      // A caller without a token, and one whose query string carries the marker.
      assert.equal((await fetch(serve.url, { method: 'POST', body: '{}' })).status, 401);
      assert.equal((await fetch(`${serve.url}?note=${MARKER}`, { method: 'POST', body: '{}' })).status, 401);
      // The workflow is a fixture here: driven through rimthan/participant; the forged call is raw on purpose.
      const { session, submissions } = await researchSessionAt(
        { kind: 'http', url: serve.url, token: TOKEN },
        'completed',
        { objective: `Decide ${MARKER}`, failOnce: ['evidence-quality'] },
      );
      assert.equal(submissions.at(-1), 'completed');
      const client = await httpClient(serve.url, TOKEN);
      try {
        const forged = await callTool(client, 'rimthan.continue_workflow', {
          checkpoint: { ...session.checkpoint, token: `${MARKER}.${MARKER}` },
          confirmed_state: session.confirmed_state,
        });
        assert.equal(forged.isError, true);
      } finally {
        await client.close();
      }
      await halfBodyThenReset(serve.url);
      // An operator activates another release: the replica logs the change.
      const activated = await adminCall(admin, ADMIN_TOKEN, 'PUT', '/channels/active', { release: NEW_RELEASE });
      assert.equal(activated.status, 200, JSON.stringify(activated.value));
      await eventually('the release change is logged', () =>
        Promise.resolve(serve.stderr().includes('"event":"release_change"')),
      );
      await eventually('the reset upload is counted', async () =>
        (await scrape(admin)).includes('rimthan_http_client_aborts_total{reason='),
      );
      const text = await scrape(admin);
      assertClean(text, 'the metrics');
      const ok = (tool: string): number =>
        sample(text, `rimthan_tool_calls_total{tool="${tool}",status="ok",code="none"}`);
      assert.equal(ok('rimthan.start_workflow'), 1);
      assert.ok(ok('rimthan.continue_workflow') >= 3);
      assert.ok(ok('rimthan.prepare_step_validation') >= 1);
      assert.ok(ok('rimthan.submit_step_validation') >= 1);
      assert.equal(
        sample(
          text,
          'rimthan_tool_calls_total{tool="rimthan.continue_workflow",status="tool_error",code="workflow_checkpoint_error"}',
        ),
        1,
      );
      assert.ok(sample(text, 'rimthan_tool_call_duration_seconds_count{tool="rimthan.continue_workflow"}') >= 3);
      assert.equal(sample(text, 'rimthan_http_responses_total{status="401"}'), 2);
      assert.ok(sample(text, 'rimthan_http_responses_total{status="200"}') >= 8);
      const aborts = ['reset', 'aborted'].map((r) => sample(text, `rimthan_http_client_aborts_total{reason="${r}"}`));
      assert.equal(
        aborts.filter((n) => !Number.isNaN(n)).reduce((a, b) => a + b, 0),
        1,
        'one abort, counted once',
      );
      assert.equal(sample(text, `rimthan_release_info{channel="active",release="${NEW_RELEASE}"}`), 1);
      assert.equal(sample(text, 'rimthan_release_degraded'), 0);
      assert.ok(sample(text, 'rimthan_release_refreshes_total') >= 1);
      assert.ok(sample(text, 'rimthan_process_resident_memory_bytes') > 0);
      assert.doesNotMatch(text, /rimthan_runs/, 'no runs metrics without the runs profile');
    } finally {
      await serve.stop();
      releases.cleanup();
    }
    const stderr = serve.stderr();
    assertClean(stderr, 'stderr');
    assert.doesNotMatch(stderr, /internal fault|"event":"fault"/);
    const events = eventLines(stderr);
    assert.deepEqual(
      events.map((e) => e['event']),
      ['start', 'release_change', 'stop'],
    );
    assert.deepEqual(
      { ...events[1], time: undefined },
      {
        time: undefined,
        level: 'info',
        event: 'release_change',
        channel: 'active',
        release: NEW_RELEASE,
        previous: OLD_RELEASE,
      },
    );
    assert.equal(events[0]?.['listen'], serve.url);
    assert.notEqual(ACTIVE_RELEASE, '');
  });

  test('runs profile: a run with the marker in its input; the admin listener serves the runs metrics', async () => {
    const flows = writeGreetingFlows(join(work, 'flows.mjs'));
    const serve = await spawnServe(
      [
        '--profile',
        'runs',
        '--transport',
        'http',
        '--port',
        '0',
        '--store',
        `sqlite:${join(work, 'runs.db')}`,
        '--flows',
        flows,
        '--admin-port',
        '0',
        '--token-file',
        tokenFile,
      ],
      env,
    );
    running.push(serve);
    const admin = serve.adminUrl ?? '';
    let runId = '';
    try {
      const client = await httpClient(serve.url, TOKEN);
      try {
        const started = await callTool(client, 'workflow_run_start', {
          definition_name: 'greeting_flow',
          definition_version: 'v1',
          input: { name: MARKER },
        });
        assert.equal(started.isError, false, JSON.stringify(started.value));
        runId = started.value['run_id'] as string;
        await eventually('the run completes', async () => {
          const got = await callTool(client, 'workflow_run_get', { run_id: runId });
          return got.value['run_status'] === 'completed';
        });
        const missing = await callTool(client, 'workflow_run_get', { run_id: `${runId}x` });
        assert.equal(missing.isError, true);
      } finally {
        await client.close();
      }
      await halfBodyThenReset(serve.url);
      await eventually('the reset upload is counted', async () =>
        (await scrape(admin)).includes('rimthan_http_client_aborts_total{reason='),
      );
      const text = await scrape(admin);
      assertClean(text, 'the metrics', [runId]);
      assert.equal(sample(text, 'rimthan_tool_calls_total{tool="workflow_run_start",status="ok",code="none"}'), 1);
      assert.ok(sample(text, 'rimthan_tool_calls_total{tool="workflow_run_get",status="ok",code="none"}') >= 1);
      assert.match(text, /^rimthan_tool_calls_total\{tool="workflow_run_get",status="tool_error",code="[a-z_]+"\} 1$/m);
      assert.equal(sample(text, 'rimthan_runs{status="completed"}'), 1);
      assert.ok(sample(text, 'rimthan_runs_commits_total{outcome="ok"}') >= 1);
      assert.ok(sample(text, 'rimthan_runs_commit_duration_seconds_count{outcome="ok"}') >= 1);
      assert.equal(sample(text, 'rimthan_runs_claimed_total'), 0, 'the run was started here, not adopted');
      assert.equal(sample(text, 'rimthan_runs_lease_takeovers_total'), 0);
      assert.doesNotMatch(text, /rimthan_release_/, 'no release metrics without a release store');
      const ready = await adminCall(admin, ADMIN_TOKEN, 'GET', '/readyz');
      assert.deepEqual([ready.status, ready.value], [200, { status: 'ready' }]);
      assert.equal((await adminCall(admin, ADMIN_TOKEN, 'GET', '/releases')).status, 404);
    } finally {
      await serve.stop();
    }
    const stderr = serve.stderr();
    assertClean(stderr, 'stderr', [runId]);
    assert.doesNotMatch(stderr, /internal fault/);
    assert.match(stderr, /runs profile listening on /);
  });

  test('docs/operations/deployment.md lists exactly the metrics the two scrapes exported', () => {
    const documented = documentedMetrics();
    assert.ok(documented.length >= 10, 'the table was found');
    const isProcess = (name: string): boolean => /^rimthan_(process|nodejs)_/.test(name);
    for (const name of documented) {
      const found = name.endsWith('*') ? [...scraped].some((s) => s.startsWith(name.slice(0, -1))) : scraped.has(name);
      assert.ok(found, `documented ${name} is exported`);
    }
    const ours = [...scraped].filter((name) => !isProcess(name));
    assert.deepEqual(
      ours.filter((name) => !documented.includes(name)),
      [],
      'every exported Rimthan metric is documented',
    );
  });
});
