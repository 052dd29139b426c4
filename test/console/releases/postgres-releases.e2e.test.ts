/**
 * The console over a PostgreSQL release store (`rimthan console --releases postgres://…`): every release, which one
 * is active and which the migration target, and the channel history with who changed it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packageRoot } from '../../../src/package/index.js';
import { PostgresReleaseStore } from '../../../src/registry/index.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';
import { startConsoleCli } from '../support.js';
import type { RunningConsole } from '../support.js';

const TOKEN = 'console-pg-token-cccccccccccccccc';
const OLD = 'research-2026.10.1';
const NEW = 'research-2026.11.1';
const skip = await postgresSkipReason();

describe('console releases from a PostgreSQL release store', { skip: skip ?? false }, () => {
  const schema = uniqueSchema('console_rel');
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-console-pg-'));
  let running: RunningConsole;

  before(async () => {
    const store = new PostgresReleaseStore({ connectionString: TEST_PG_URL, schema });
    await store.open();
    for (const name of [OLD, NEW]) {
      await store.publishRelease(readFileSync(join(packageRoot(), 'releases', 'dist', `${name}.json`)), 'admin-x');
    }
    await store.setChannel({ channel: 'active', release: OLD, actor: 'admin-x' });
    await store.setChannel({ channel: 'active', release: NEW, expectedCurrent: OLD, actor: 'admin-y' });
    await store.setChannel({ channel: 'migration-target', release: NEW, actor: 'admin-y' });
    await store.close();
    writeFileSync(join(dir, 'tokens'), `${TOKEN}\n`);
    running = await startConsoleCli([
      '--admin-token-file',
      join(dir, 'tokens'),
      '--releases',
      `${TEST_PG_URL}?schema=${schema}`,
    ]);
  });
  after(async () => {
    await running?.stop();
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  test('lists the releases, the active one, the migration target and the channel history', async () => {
    const response = await fetch(new URL('/api/releases', running.origin), {
      headers: { Authorization: `Bearer ${TOKEN}`, Connection: 'close' },
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as {
      store: string;
      active: string;
      migration_target: string;
      migration_note?: string;
      releases: { release: string; status: string; channels: string[] }[];
      history: { channel: string; previous: string | null; release: string | null; by?: string }[];
    };
    assert.equal(body.store, 'postgres');
    assert.equal(body.active, NEW);
    assert.equal(body.migration_target, NEW);
    assert.equal(body.migration_note, undefined);
    assert.deepEqual(
      body.releases.map((r) => [r.release, r.status, r.channels]),
      [
        [OLD, 'verified', []],
        [NEW, 'verified', ['active', 'migration-target']],
      ],
    );
    assert.deepEqual(
      body.history.map((h) => [h.channel, h.previous, h.release, h.by]),
      [
        ['migration-target', null, NEW, 'admin-y'],
        ['active', OLD, NEW, 'admin-y'],
        ['active', null, OLD, 'admin-x'],
      ],
    );
  });
});
