/**
 * Concurrency limits per key with two supervisors on one PostgreSQL schema: 200 concurrent starts split over both
 * workers never execute more than the limit per key at once (counted in memory across both, and sampled in the store),
 * every waiting run reads as pending, and all complete; a waiting run can be cancelled and frees nothing; waiting runs
 * stay waiting over a restart and run on the next supervisor.
 */
import { after, before, describe, test } from 'node:test';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { PostgresRunStore } from '../../../src/runs/store/postgres.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { dropSchema, postgresSkipReason, TEST_PG_URL, uniqueSchema } from '../../support/postgres.js';
import { ConcurrencyProbe, limitedFlow } from '../fixtures/limited-flows.js';
import { limitedLoad, type LoadWorker } from './concurrency-load.js';
import { cancelWaitingCase, restartCase, sweepAfterCrashCase, type OpenStore } from './concurrency-cases.js';

const reason = await postgresSkipReason();
const schema = uniqueSchema('runs_limits');
/** The gated cases run on a schema of their own, where no load worker claims their runs. */
const gatedSchema = uniqueSchema('runs_limits_gated');
const openGated: OpenStore = async () => {
  const store = new PostgresRunStore({ connectionString: TEST_PG_URL, schema: gatedSchema, pool: { max: 4 } });
  await store.open();
  return store;
};

describe('concurrency limits per key on PostgreSQL with two workers', { skip: reason ?? false }, () => {
  const probe = new ConcurrencyProbe();
  const workers: LoadWorker[] = [];
  before(async () => {
    for (const id of ['a', 'b']) {
      const store = new PostgresRunStore({ connectionString: TEST_PG_URL, schema, pool: { max: 6 } });
      await store.open();
      const catalog = new FlowCatalog();
      catalog.register(limitedFlow(probe));
      const supervisor = new Supervisor({ store, catalog, workerId: id, concurrency: 16 });
      await supervisor.start();
      workers.push({ store, supervisor });
    }
  });
  after(async () => {
    for (const w of workers) await w.supervisor.stop();
    for (const w of workers) await (w.store as PostgresRunStore).close();
    await dropSchema(schema);
    await dropSchema(gatedSchema);
  });

  test('200 concurrent starts over two workers: never more than the limit per key, all complete', async () => {
    await limitedLoad(workers, probe);
  });

  test('cancelling a waiting run works and frees nothing', () => cancelWaitingCase(openGated));

  test('waiting runs stay waiting over a restart and run on the next supervisor', () => restartCase(openGated));

  test('the sweep admits a waiting run whose holder ended without promoting it', () => sweepAfterCrashCase(openGated));
});
