/**
 * Child process of the SQLite durability test: acknowledges 100 group-committed starts, reports their ids on stdout,
 * then dies by SIGKILL without closing the store (no flush, no cleanup).
 */
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { newRun, seedCommit } from './store-fixtures.js';

const path = process.argv[2];
const session = process.argv[3];
if (path === undefined || session === undefined) throw new Error('usage: child DB_PATH SESSION');
const store = new SqliteRunStore(path);
await store.open();
const ids = await Promise.all(
  Array.from({ length: 100 }, async () => {
    const created = await store.createRun(newRun(session));
    await store.commit(seedCommit(created));
    return created.run_id;
  }),
);
process.stdout.write(`${JSON.stringify(ids)}\n`, () => process.kill(process.pid, 'SIGKILL'));
