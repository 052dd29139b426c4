/**
 * The DBOS baseline: DBOS Transact (@dbos-inc/dbos-sdk) with a workflow of PG_STEPS trivial steps (`DBOS.runStep`),
 * its system database on the same PostgreSQL server, set up as its documentation shows. DBOS persists each step's
 * output before the next step runs and the workflow status at start and end. One DBOS runtime per process (it is a
 * singleton), so the bench runs it in its own child process.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { PgEngine } from '../postgres/engine.js';
import { PG_STEPS } from '../postgres/engine.js';

/** Launches DBOS on `systemDatabaseUrl` and registers the chain workflow. */
export async function openDbos(systemDatabaseUrl: string, poolSize: number): Promise<PgEngine> {
  DBOS.setConfig({ name: 'rimthan-bench', systemDatabaseUrl, systemDatabasePoolSize: poolSize, logLevel: 'error' });
  const step = (n: number): Promise<number> => Promise.resolve(n + 1);
  const chain = DBOS.registerWorkflow(
    async (start: number): Promise<number> => {
      let n = start;
      for (let i = 0; i < PG_STEPS; i++) {
        const current = n;
        n = await DBOS.runStep(() => step(current), { name: `s${i}` });
      }
      return n;
    },
    { name: 'bench_chain' },
  );
  await DBOS.launch();
  const inFlight = new Set<Promise<unknown>>();
  return {
    name: 'DBOS',
    async runOnce() {
      const handle = await DBOS.startWorkflow(chain)(0);
      if ((await handle.getResult()) !== PG_STEPS) throw new Error('DBOS chain returned a wrong count');
    },
    async startOnly() {
      const handle = await DBOS.startWorkflow(chain)(0);
      const done = handle.getResult();
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    },
    async drain() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      await DBOS.shutdown();
    },
  };
}
