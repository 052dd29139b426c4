/**
 * kill -9 under load, on both backends: 200 concurrent runs mixing parallel branches with a join, a forEach fan-out,
 * an error route, durable timers, events, child runs and a concurrency-limited flow (test/runs/fixtures/chaos-kinds.ts),
 * with a per-minute schedule catching up 20 missed ticks beside them, execute in a worker child
 * process that is SIGKILLed at random moments, several times, and launched again each time (every launch starts the
 * runs again under their idempotency keys and resends their events), until a last launch finishes them all. Then:
 * no run is lost (each reaches its expected status and final state), no vertex executes again once its completion was
 * durable (each kill's checkpoints are compared with the side file of executions), every re-execution has a new
 * idempotency key, each parent has exactly the children it asked for, no event is delivered or consumed twice, no
 * key of the limited flow ever runs more than its limit at once (sampled), and each schedule tick started exactly one
 * run.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeCheckpoint } from '../../../src/runs/executor/checkpoint-state.js';
import { RunStatus, TERMINAL_STATUSES, type RunRecord } from '../../../src/runs/store/types.js';
import { scheduleSessionId, tickIdempotencyKey } from '../../../src/runs/supervisor/scheduler.js';
import { LIMIT, LIMITED_FLOW, limitKey, TICK_FLOW, TICK_SCHEDULE } from '../fixtures/chaos-flows.js';
import { chaosRunKey, kindOf } from '../fixtures/chaos-kinds.js';
import { sessionRuns, sideLines, spawnChaosWorker } from '../fixtures/chaos-harness.js';
import type { ChaosWorkerConfig } from '../fixtures/chaos-worker.js';
import { crashBackends } from '../fixtures/crash-backends.js';
import { readExecutions } from '../fixtures/crash-flow.js';
import { checkpointedVertices } from '../fixtures/crash-harness.js';
import { waitFor } from '../helpers.js';

const RUNS = 200;
const KILLS = 8;
/** Schedule ticks already due when the first worker starts: the schedule catches all of them up, under the kills. */
const MISSED_TICKS = 20;
const MINUTE = 60_000;

/** Fails when more runs of the limited flow than its limit execute at once for one key (sampled). */
function checkSlotBound(runs: readonly RunRecord[]): void {
  const running = new Map<string, number>();
  for (const run of runs) {
    if (run.definition_name !== LIMITED_FLOW || run.status !== RunStatus.Running) continue;
    const key = limitKey(Number(run.idempotency_key?.slice('chaos-'.length)));
    running.set(key, (running.get(key) ?? 0) + 1);
  }
  for (const [key, n] of running) assert.ok(n <= LIMIT, `${n} runs of key ${key} running at once (limit ${LIMIT})`);
}
const backends = await crashBackends('runs_kill_chaos');

for (const backend of backends) {
  describe(`kill -9 under 200 mixed runs: ${backend.name}`, { skip: backend.skip ?? false }, () => {
    test('every run finishes once, no durable vertex runs again, no duplicate child or event', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'rimthan-kill-chaos-'));
      const opened = backend.open(dir);
      const store = opened.store;
      await store.open();
      const sessionId = randomUUID();
      const base: Omit<ChaosWorkerConfig, 'worker'> = {
        store: opened.config,
        sideFile: join(dir, 'executions.log'),
        eventsFile: join(dir, 'events.log'),
        sessionId,
        runs: RUNS,
        leaseMs: 1000,
        concurrency: 48,
      };
      // The schedule's next tick lies MISSED_TICKS minutes back, as if no worker had run meanwhile (a sync keeps the
      // next tick of an unchanged schedule): the first launches catch every one of them up, among the kills.
      const firstTick = Math.floor(Date.now() / MINUTE) * MINUTE - MISSED_TICKS * MINUTE;
      await store.syncSchedules(
        TICK_FLOW,
        [
          {
            definition_name: TICK_FLOW,
            schedule_id: TICK_SCHEDULE.id,
            definition_version: 'v1',
            cron: TICK_SCHEDULE.cron,
            timezone: TICK_SCHEDULE.timezone,
            overlap: TICK_SCHEDULE.overlap,
            catch_up: TICK_SCHEDULE.catchUp,
            next_tick_at: firstTick,
          },
        ],
        new Date().toISOString(),
      );
      const snapshots: Map<string, number>[] = [];
      let unfinishedAtKills = 0;
      let launch: ReturnType<typeof spawnChaosWorker> | undefined;
      try {
        for (let k = 0; k < KILLS; k++) {
          // A random moment: after 1 to 80 more vertex executions (the first kill may fall among the starts).
          const target = sideLines(base.sideFile) + 1 + Math.floor(Math.random() * 80);
          launch = spawnChaosWorker({ ...base, worker: `w${k}` });
          const current = launch;
          let nextLook = 0;
          await waitFor(async () => {
            if (current.child.exitCode !== null) return true;
            if (sideLines(base.sideFile) >= target) return true;
            // Nothing left to execute: kill it anyway (looked at every 200 ms).
            if (Date.now() < nextLook) return undefined;
            nextLook = Date.now() + 200;
            const runs = await sessionRuns(store, sessionId);
            checkSlotBound(runs);
            return runs.length >= RUNS && runs.every((r) => TERMINAL_STATUSES.has(r.status)) ? true : undefined;
          }, 60_000);
          await current.kill();
          const runs = await sessionRuns(store, sessionId);
          checkSlotBound(runs);
          unfinishedAtKills += runs.filter((r) => !TERMINAL_STATUSES.has(r.status)).length;
          snapshots.push(await checkpointedVertices(store, runs, base.sideFile));
          t.diagnostic(`kill ${k + 1}: ${runs.length} runs, ${sideLines(base.sideFile)} executions so far`);
        }
        launch = spawnChaosWorker({ ...base, worker: `w${KILLS}` });
        await launch.ready(60_000);
        const finished = await waitFor(async () => {
          const runs = await sessionRuns(store, sessionId);
          checkSlotBound(runs);
          return runs.length >= RUNS && runs.every((r) => TERMINAL_STATUSES.has(r.status)) ? runs : undefined;
        }, 90_000).catch(async (error: unknown) => {
          const open = (await sessionRuns(store, sessionId)).filter((r) => !TERMINAL_STATUSES.has(r.status));
          const summary = new Map<string, number>();
          for (const r of open) {
            const key = `${r.definition_name} ${r.status} "${r.status_summary}"`;
            summary.set(key, (summary.get(key) ?? 0) + 1);
          }
          throw new Error(`${String(error)}; unfinished: ${JSON.stringify([...summary])}`);
        });
        // Every tick from the first missed one to the current minute started its run, and every run ended.
        const ticked = await waitFor(async () => {
          const row = await store.getSchedule(TICK_FLOW, TICK_SCHEDULE.id);
          if (row === undefined || row.pending_tick_at !== null) return undefined;
          if ((row.last_tick_at ?? 0) < firstTick + MISSED_TICKS * MINUTE) return undefined;
          const runs = await sessionRuns(store, scheduleSessionId(TICK_FLOW));
          // Read again: a new minute's tick taken meanwhile would make the two reads disagree.
          const again = await store.getSchedule(TICK_FLOW, TICK_SCHEDULE.id);
          if (again?.revision !== row.revision) return undefined;
          return runs.every((r) => TERMINAL_STATUSES.has(r.status)) ? { row, runs } : undefined;
        }, 60_000);
        await launch.kill();
        assert.ok(unfinishedAtKills > 0, 'the kills fell while runs were in flight');

        // Exactly one run per tick: no tick lost to a kill, none started twice.
        const ticks = ((ticked.row.last_tick_at ?? firstTick) - firstTick) / MINUTE + 1;
        assert.deepEqual(
          ticked.runs.map((r) => r.idempotency_key).sort(),
          Array.from({ length: ticks }, (_, k) => tickIdempotencyKey(TICK_SCHEDULE.id, firstTick + k * MINUTE)).sort(),
          'one run per schedule tick',
        );
        assert.equal(ticked.row.started, ticks, 'the schedule counted each tick it started once');
        assert.ok(
          ticked.runs.every((r) => r.status === RunStatus.Completed),
          'every tick run completed',
        );

        // No run lost: each top-level run reached its status, state and vertices.
        let expectedChildren = 0;
        for (let i = 0; i < RUNS; i++) {
          const kind = kindOf(i);
          const run = await store.findByIdempotencyKey(sessionId, chaosRunKey(i));
          assert.ok(run !== undefined, `run ${i} (${kind.kind}) exists`);
          assert.equal(run.status, kind.status, `run ${i} (${kind.kind}) status`);
          const cp = decodeCheckpoint((await store.latestCheckpoint(run.run_id))?.state ?? {});
          assert.deepEqual(cp?.flow_state, kind.state(i), `run ${i} (${kind.kind}) final state`);
          assert.deepEqual([...(cp?.completed_vertices ?? [])].sort(), [...kind.vertices].sort(), `run ${i} vertices`);
          // Exactly the children it asked for, in order, each ended as expected.
          const children = await store.childRuns(run.run_id, { limit: 10 });
          assert.deepEqual(
            children.map((c) => [c.definition_name, c.status]),
            kind.children.map((c) => [c.flow, c.status]),
            `run ${i} (${kind.kind}) children`,
          );
          expectedChildren += kind.children.length;
        }
        assert.equal(finished.length, RUNS + expectedChildren, 'no run beyond the mix and its children');

        // No durable vertex executed again: after each kill, a vertex its checkpoint recorded as completed had run
        // as often as it ever would.
        const executions = readExecutions(readFileSync(base.sideFile, 'utf8'));
        for (const [k, snapshot] of snapshots.entries()) {
          for (const [id, count] of snapshot) {
            assert.equal(
              executions.get(id)?.length ?? 0,
              count,
              `${id} ran again after kill ${k + 1} found it durable`,
            );
          }
        }
        for (const [id, keys] of executions) {
          assert.equal(new Set(keys).size, keys.length, `${id}: every execution has its own idempotency key`);
        }

        // No event delivered twice (resends after each launch are duplicates).
        const delivered = new Map<string, number>();
        const sends = existsSync(base.eventsFile) ? readFileSync(base.eventsFile, 'utf8').split('\n') : [];
        for (const line of sends) {
          const [runId, eventId, outcome] = line.split(' ');
          if (outcome === 'delivered')
            delivered.set(`${runId} ${eventId}`, (delivered.get(`${runId} ${eventId}`) ?? 0) + 1);
        }
        for (const [id, n] of delivered) assert.equal(n, 1, `event ${id} delivered once`);
        const reRun = [...executions.values()].filter((keys) => keys.length > 1).length;
        t.diagnostic(
          `${finished.length} runs; ${reRun} vertices executed more than once (in flight at a kill, or woken)`,
        );
      } finally {
        await launch?.kill().catch(() => undefined);
        await store.close();
        await opened.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
