/**
 * `rimthan console` observes the run store and never runs work: a run started through the console while no worker
 * is up stays queued in the store (pending, unclaimed), and the first `rimthan serve --profile runs` worker that starts
 * on the same store claims and executes it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_RUN_STORE, openStore } from '../../../src/cli/run-store.js';
import { RunStatus } from '../../../src/runs/index.js';
import type { RunRecord } from '../../../src/runs/index.js';
import { APPROVAL_FLOW } from '../fixtures.js';
import { startConsoleCli, startRunsWorker } from '../support.js';

const TOKEN = 'console-observer-token-aaaaaaaaaaaa';

/** The run as the store holds it (read through a store object of its own, as another process would). */
async function stored(cwd: string, session: string, runId: string): Promise<RunRecord | undefined> {
  const store = await openStore(DEFAULT_RUN_STORE, cwd, { create: false });
  try {
    return await store.getRun(session, runId);
  } finally {
    await store.close();
  }
}

describe('the console observes the run store', () => {
  test('a run started in the console waits unclaimed until a worker starts, which executes it', async () => {
    const secrets = mkdtempSync(join(tmpdir(), 'rimthan-console-observer-'));
    writeFileSync(join(secrets, 'tokens'), `${TOKEN}\n`);
    const running = await startConsoleCli(['--admin-token-file', join(secrets, 'tokens')], {}, undefined, {
      worker: false,
    });
    const api = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
      const answer = await fetch(new URL(path, running.origin), {
        method,
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await answer.json()) as Record<string, unknown>;
      assert.equal(answer.status, 200, JSON.stringify(json));
      return json;
    };
    let worker: Awaited<ReturnType<typeof startRunsWorker>> | undefined;
    try {
      const session = (await api('GET', '/api/me'))['session'] as string;
      const started = await api('POST', '/api/runs', {
        definition_name: APPROVAL_FLOW.name,
        definition_version: APPROVAL_FLOW.version,
        input: APPROVAL_FLOW.input,
      });
      const runId = started['run_id'] as string;
      assert.equal(started['run_status'], RunStatus.Pending, 'the console queued the run instead of executing it');

      // Durable in the store, seeded, and waiting for a worker: nobody claimed it.
      const queued = await stored(running.cwd, session, runId);
      assert.ok(queued !== undefined);
      assert.equal(queued.status, RunStatus.Pending);
      assert.equal(queued.status_summary, 'queued: waiting for a free execution slot');
      assert.equal(queued.checkpoint_revision, 0);
      assert.equal(queued.activity_cursor, 1, 'only run_started is written: no vertex ran');

      // A worker on the same store claims it and runs it to the approval it waits for.
      worker = await startRunsWorker(running.cwd, running.env);
      let record: RunRecord | undefined;
      for (let i = 0; i < 600 && record?.status !== RunStatus.Interrupted; i++) {
        record = await stored(running.cwd, session, runId);
        if (record?.status !== RunStatus.Interrupted) await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(record?.status, RunStatus.Interrupted, 'the worker executed the run up to its approval');
      const viewed = await api('GET', `/api/runs/${runId}`);
      assert.equal(viewed['run_status'], RunStatus.Interrupted);
    } finally {
      assert.equal((await worker?.stop()) ?? 0, 0, worker?.stderr.join('\n'));
      assert.equal(await running.stop(), 0);
      rmSync(secrets, { recursive: true, force: true });
    }
  });
});
