import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';

test('every group-committed write acknowledged before a SIGKILL is present after reopening', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-store-crash-'));
  try {
    const file = join(dir, 'runs.db');
    const session = randomUUID();
    const child = fileURLToPath(new URL('./store-sqlite-crash-child.js', import.meta.url));
    const result = spawnSync(process.execPath, [child, file, session], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(result.signal, 'SIGKILL', 'the child must die by SIGKILL after its writes were acknowledged');
    const acknowledged = JSON.parse(result.stdout) as string[];
    assert.equal(acknowledged.length, 100);

    const store = new SqliteRunStore(file);
    await store.open();
    try {
      const listed = await store.listRuns(session, { limit: 1000 });
      assert.deepEqual(new Set(listed.map((r) => r.run_id)), new Set(acknowledged));
      assert.ok(listed.every((r) => r.checkpoint_revision === 0));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
