/**
 * How replicas follow the channels (docs/operations/deployment.md, "pick-up time"): a change made through one replica's
 * store reaches another replica's follower by NOTIFY, without waiting for a poll; a change whose notification is lost
 * (here: written without one) is picked up by the poll. The documented poll interval is the one `serve` configures.
 * Two PostgreSQL release stores on one schema, as two replicas have.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RELEASE_POLL_MS } from '../../../src/cli/release-store-config.js';
import { packageRoot } from '../../../src/package/index.js';
import {
  buildRelease,
  FOLLOWER_DEFAULTS,
  PostgresReleaseStore,
  ReleaseFollower,
  serializeReleaseFile,
} from '../../../src/registry/index.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';
import { edit, withMinimalCopy } from '../helpers.js';

const pgSkip = await postgresSkipReason();

function releaseBytes(name: string): Uint8Array {
  return serializeReleaseFile(
    withMinimalCopy((dir) => {
      edit(dir, 'registry.yaml', 'release: test-2026.1.0', `release: ${name}`);
      const result = buildRelease(dir);
      assert.ok(result.ok);
      return result.file;
    }),
  );
}

/** Waits until `probe` holds; the guard only keeps a broken follower from hanging the suite. */
async function until(what: string, probe: () => boolean, guardMs: number): Promise<number> {
  const started = Date.now();
  while (!probe()) {
    if (Date.now() - started > guardMs) assert.fail(`${what}: not picked up within ${guardMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

test('the documented poll interval is the one serve gives the PostgreSQL follower', () => {
  const doc = readFileSync(join(packageRoot(), 'docs', 'operations', 'deployment.md'), 'utf8');
  const seconds = Number(/covered by a poll every \*\*(\d+) seconds\*\*/.exec(doc)?.[1]);
  assert.equal(seconds * 1000, RELEASE_POLL_MS.postgres);
  assert.equal(FOLLOWER_DEFAULTS.pollIntervalMs, RELEASE_POLL_MS.postgres);
});

describe('a replica picks up channel changes', { skip: pgSkip ?? false }, () => {
  const schema = uniqueSchema('rel_pickup');
  let writer: PostgresReleaseStore;
  let reader: PostgresReleaseStore;
  before(async () => {
    writer = new PostgresReleaseStore({ connectionString: TEST_PG_URL, schema });
    await writer.open();
    reader = new PostgresReleaseStore({ connectionString: TEST_PG_URL, schema });
    await reader.open();
    for (const name of ['test-1.0.0', 'test-2.0.0', 'test-3.0.0']) await writer.publishRelease(releaseBytes(name), 'a');
    await writer.setChannel({ channel: 'active', release: 'test-1.0.0', actor: 'a' });
  });
  after(async () => {
    await writer.close();
    await reader.close();
    await dropSchema(schema);
  });

  test('by NOTIFY, with no poll at all', async (t) => {
    // A poll interval of an hour: only the notification can bring the change within the guard.
    const follower = await ReleaseFollower.start(reader, { pollIntervalMs: 3_600_000 });
    try {
      assert.equal(follower.active().release, 'test-1.0.0');
      await writer.setChannel({ channel: 'active', release: 'test-2.0.0', actor: 'a' });
      const ms = await until('a notified change', () => follower.active().release === 'test-2.0.0', 30_000);
      t.diagnostic(`picked up by NOTIFY after ${ms} ms`);
    } finally {
      await follower.stop();
    }
  });

  test('a change whose notification was lost is picked up by the poll', async (t) => {
    const pollMs = 500;
    // This replica's notifications are all lost: the follower gets a store that cannot watch.
    const deaf = new Proxy(reader, {
      get(target, prop) {
        if (prop === 'watch') return undefined;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const follower = await ReleaseFollower.start(deaf, { pollIntervalMs: pollMs });
    try {
      assert.equal(follower.active().release, 'test-2.0.0');
      await writer.setChannel({ channel: 'active', release: 'test-3.0.0', actor: 'a' });
      const ms = await until('an unnotified change', () => follower.active().release === 'test-3.0.0', 30_000);
      t.diagnostic(`picked up by the ${pollMs} ms poll after ${ms} ms`);
    } finally {
      await follower.stop();
    }
  });
});
