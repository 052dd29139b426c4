/**
 * Child process of the schedule crash test: a worker on the SQLite file whose clock stands CRASH_TICKS minutes after
 * the schedule's first tick; it dies by SIGKILL (no stop, no flush) as soon as it sees `KILL_AT` ticks started.
 */
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { SqliteRunStore } from '../../../src/runs/store/sqlite.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { CRASH_NOW, MINUTE_FLOW, minuteFlow } from '../fixtures/schedule-flows.js';

const path = process.argv[2];
const killAt = Number(process.argv[3]);
if (path === undefined || !Number.isInteger(killAt)) throw new Error('usage: child DB_PATH KILL_AT');
const store = new SqliteRunStore(path);
await store.open();
const catalog = new FlowCatalog();
catalog.register(minuteFlow);
const supervisor = new Supervisor({
  store,
  catalog,
  clock: { now: () => new Date(CRASH_NOW) },
  schedulePollMs: 10,
  leaseMs: 1000,
  onError: () => undefined,
});
const watch = setInterval(() => {
  void store.getSchedule(MINUTE_FLOW, 'minute').then((row) => {
    if (row !== undefined && row.started >= killAt) process.kill(process.pid, 'SIGKILL');
  });
}, 1);
void supervisor.start();
setTimeout(() => {
  clearInterval(watch);
  process.kill(process.pid, 'SIGKILL');
}, 20_000).unref();
