/**
 * Exactly once across a real crash: a worker process approves a release_notes run and is SIGKILLed right after
 * CHANGELOG.md was written, before that step's checkpoint committed. A new process adopts the run and repeats the
 * step under a new idempotency key (a re-execution is a new try); the section it would write carries the approving
 * try's key, recorded in the checkpoint before the write, so the repeat finds it and writes nothing.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { repositoryWith } from '../fixtures/git-repo.js';
import type { ReleaseNotesWorkerConfig } from '../fixtures/release-notes-worker.js';
import { fullHistory } from '../helpers.js';

const WORKER = fileURLToPath(new URL('../fixtures/release-notes-worker.js', import.meta.url));

function runWorker(
  config: ReleaseNotesWorkerConfig,
): Promise<{ stdout: string; signal: string | null; code: number | null }> {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker ${config.mode} timed out: ${stderr}`));
    }, 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== null && code !== 0) reject(new Error(`worker ${config.mode} exited ${code}: ${stderr}`));
      else resolve({ stdout, signal, code });
    });
  });
}

describe('release_notes: CHANGELOG.md is written once across a crash and restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-notes-crash-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('killed right after the write, restarted: one section, two executions under different keys', async () => {
    const workspace = join(dir, 'workspace');
    const repo = repositoryWith(join(workspace, 'app'), 'v2.0.0', ['feat: crash-proof notes', 'fix: a bug']);
    const base: Omit<ReleaseNotesWorkerConfig, 'mode'> = {
      store: join(dir, 'runs.db'),
      workspace,
      session: 'crash-session',
      log: join(dir, 'writes.log'),
    };
    const crashed = await runWorker({
      ...base,
      mode: 'crash-after-write',
      input: { repository: 'app', since: 'v2.0.0', version: '2.1.0' },
    });
    assert.equal(crashed.signal, 'SIGKILL', 'the first worker died inside write_changelog');
    const runId = /^run (\S+)$/m.exec(crashed.stdout)?.[1] ?? '';
    const afterCrash = readFileSync(join(repo, 'CHANGELOG.md'), 'utf8');
    assert.equal(afterCrash.match(/^## 2\.1\.0/gm)?.length, 1, 'the first worker wrote the section');

    const store = new SqliteRunStore(base.store);
    await store.open();
    try {
      assert.equal((await store.getRun('crash-session', runId))?.status, 'running', 'the write was not checkpointed');
    } finally {
      await store.close();
    }

    const recovered = await runWorker({ ...base, mode: 'recover', runId });
    assert.equal(recovered.stdout.trim(), 'completed: completed');
    const writes = readFileSync(base.log, 'utf8').trim().split('\n');
    assert.equal(writes.length, 2, 'write_changelog ran again after the restart');
    const [firstKey, firstOutcome] = (writes[0] ?? '').split(' ');
    const [secondKey, secondOutcome] = (writes[1] ?? '').split(' ');
    assert.equal(firstOutcome, 'written');
    assert.equal(secondOutcome, 'already_written');
    assert.notEqual(firstKey, secondKey, 'the re-execution is a new try with its own key');
    assert.equal(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'), afterCrash, 'nothing written twice');
    assert.equal(existsSync(join(repo, 'CHANGELOG.draft.md')), false);

    const reopened = new SqliteRunStore(base.store);
    await reopened.open();
    try {
      const run = await reopened.getRun('crash-session', runId);
      assert.equal(run?.status, 'completed');
      const completed = (await fullHistory(reopened, runId)).filter((e) => e.kind === 'vertex_completed');
      assert.deepEqual(
        completed.map((e) => e.vertex_id),
        ['draft_notes', 'await_approval', 'write_changelog'],
      );
    } finally {
      await reopened.close();
    }
  });
});
