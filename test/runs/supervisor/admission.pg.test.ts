/**
 * Admission control and fair sharing: a worker never executes more runs than its slots; starts beyond them are
 * acknowledged with the run durably `pending`; a second worker on the same store takes the waiting runs instead of
 * starving while the first holds a backlog. Against both backends (two store objects on one database each).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FlowCatalog } from '../../../src/runs/flow/catalog.js';
import { defineFlow } from '../../../src/runs/flow/define.js';
import type { RunRecord } from '../../../src/runs/store/types.js';
import { Supervisor } from '../../../src/runs/supervisor/supervisor.js';
import { closedSchema, createPendingRun, deferred, waitFor } from '../helpers.js';
import { twoStoreBackends } from '../support/two-stores.js';

const SLOTS = 2;
const RUNS = 6;
const backends = twoStoreBackends('admission');

for (const backend of backends) {
  describe(`admission control and fair sharing: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('starts beyond a worker’s slots wait as pending and another worker takes them', async () => {
      const release = deferred();
      const executing = new Map<string, Set<string>>([
        ['a', new Set()],
        ['b', new Set()],
      ]);
      const executed = new Map<string, string[]>([
        ['a', []],
        ['b', []],
      ]);
      let most = 0;
      const catalogFor = (worker: string): FlowCatalog => {
        const catalog = new FlowCatalog();
        catalog.register(
          defineFlow<{ n: number }>({
            name: 'held_flow',
            version: 'v1',
            description: 'one vertex held until released',
            inputSchema: closedSchema({ n: { type: 'integer' } }),
            graph: {
              start: 'hold',
              vertices: {
                hold: {
                  run: async ({ runId }) => {
                    const mine = executing.get(worker) as Set<string>;
                    mine.add(runId);
                    executed.get(worker)?.push(runId);
                    most = Math.max(most, mine.size);
                    await release.promise;
                    mine.delete(runId);
                  },
                },
              },
            },
          }),
        );
        return catalog;
      };
      const opened = await backend.open();
      const { a: storeA, b: storeB } = opened;
      const a = new Supervisor({
        store: storeA,
        catalog: catalogFor('a'),
        concurrency: SLOTS,
        leaseMs: 300,
        workerId: 'a',
      });
      const b = new Supervisor({
        store: storeB,
        catalog: catalogFor('b'),
        concurrency: SLOTS,
        leaseMs: 300,
        workerId: 'b',
      });
      try {
        await a.start();
        const session = a.forSession(randomUUID());
        const started: RunRecord[] = [];
        for (let i = 0; i < RUNS; i++) {
          const run = await createPendingRun(storeA, {
            sessionId: session.sessionId,
            name: 'held_flow',
            version: 'v1',
            input: { n: i },
          });
          started.push(await session.start(run.run_id));
        }
        assert.deepEqual(
          started.map((r) => r.status),
          [...Array<string>(SLOTS).fill('running'), ...Array<string>(RUNS - SLOTS).fill('pending')],
          'the first slots execute at once; the other starts are acknowledged as pending',
        );
        assert.ok(
          started.every((r) => r.checkpoint_revision === 0),
          'every start is acknowledged at its durable seed',
        );
        await b.start();
        await waitFor(() => ((executing.get('b')?.size ?? 0) === SLOTS ? true : undefined));
        const statuses = await Promise.all(started.map(async (r) => (await storeA.getRunById(r.run_id))?.status));
        assert.equal(statuses.filter((s) => s === 'pending').length, RUNS - 2 * SLOTS, 'the rest still wait, durably');
        release.resolve();
        await waitFor(async () => {
          const all = await Promise.all(started.map((r) => storeA.getRunById(r.run_id)));
          return all.every((r) => r?.status === 'completed') ? true : undefined;
        });
        assert.ok(most <= SLOTS, 'no worker ever executed more runs than its slots');
        assert.ok((executed.get('b')?.length ?? 0) >= SLOTS, 'the second worker took its share of the backlog');
        assert.equal(
          (executed.get('a')?.length ?? 0) + (executed.get('b')?.length ?? 0),
          RUNS,
          'each run executed once',
        );
      } finally {
        release.resolve();
        await a.stop();
        await b.stop();
        await opened.cleanup();
      }
    });
  });
}
