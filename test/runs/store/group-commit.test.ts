import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GroupCommitWriter } from '../../../src/runs/store/group-commit.js';

/** A fake database that records the SQL it is asked to run and the sync level of each COMMIT. */
function fakeDatabase() {
  const log: string[] = [];
  let sync = true;
  let changes = 0;
  return {
    log,
    db: {
      exec(sql: string) {
        log.push(sql === 'COMMIT' ? `COMMIT (${sync ? 'synced' : 'not synced'})` : sql);
      },
    },
    hooks: {
      changes: () => changes,
      setSync: (value: boolean) => {
        sync = value;
      },
    },
    /** A write that changes one row. */
    write: () => {
      changes += 1;
      return changes;
    },
  };
}

const commits = (log: readonly string[]) => log.filter((l) => l.startsWith('COMMIT'));

describe('group commit', () => {
  test('writes queued in one turn share one transaction, each acknowledged with its own result', async () => {
    const f = fakeDatabase();
    const writer = new GroupCommitWriter(f.db, true, f.hooks);
    const results = await Promise.all([writer.write(f.write), writer.write(f.write), writer.write(f.write)]);
    assert.deepEqual(results, [1, 2, 3]);
    assert.deepEqual(commits(f.log), ['COMMIT (synced)']);
    assert.equal(writer.transactions, 1);
  });

  test('a batch of writes that need no fsync of their own commits unsynced; one synced write syncs the batch', async () => {
    const f = fakeDatabase();
    const writer = new GroupCommitWriter(f.db, true, f.hooks);
    await Promise.all([writer.write(f.write, { sync: false }), writer.write(f.write, { sync: false })]);
    assert.deepEqual(commits(f.log), ['COMMIT (not synced)']);
    assert.equal(writer.transactions, 0, 'an unsynced transaction is not counted as durable');
    await Promise.all([writer.write(f.write, { sync: false }), writer.write(f.write)]);
    assert.deepEqual(commits(f.log), ['COMMIT (not synced)', 'COMMIT (synced)']);
    assert.equal(writer.transactions, 1);
    await writer.write(f.write);
    assert.deepEqual(commits(f.log).at(-1), 'COMMIT (synced)', 'the connection is back to synced commits');
  });

  test('without grouping every write is its own synced transaction (the naive baseline)', async () => {
    const f = fakeDatabase();
    const writer = new GroupCommitWriter(f.db, false, f.hooks);
    await Promise.all([writer.write(f.write, { sync: false }), writer.write(f.write)]);
    assert.deepEqual(commits(f.log), ['COMMIT (synced)', 'COMMIT (synced)']);
    assert.equal(writer.transactions, 2);
  });

  test('a refused write rolls back alone; the rest of its batch commits', async () => {
    const f = fakeDatabase();
    const writer = new GroupCommitWriter(f.db, true, f.hooks);
    const outcomes = await Promise.allSettled([
      writer.write(f.write),
      writer.write(() => {
        throw new Error('refused');
      }),
      writer.write(f.write),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.ok(f.log.includes('ROLLBACK TO w'));
    assert.deepEqual(commits(f.log), ['COMMIT (synced)']);
  });
});
