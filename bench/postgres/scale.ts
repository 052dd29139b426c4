/**
 * PostgreSQL parts `workers` and `failover`.
 *
 * - workers: 1, 2 and 4 Rimthan worker processes on one schema; CLIENTS closed-loop clients in all, split evenly
 *   (each process's clients start runs on it, as replicas behind a load balancer would); completed workflows/s summed
 *   over the processes per worker count, so the scaling curve and the point where the machine or the database is the
 *   limit are visible.
 * - failover: a worker executing slow runs is killed (SIGKILL); the time until another worker has taken over one of
 *   its runs (the claim that fences the dead worker out) is measured, for two lease lengths.
 */
import { randomUUID } from 'node:crypto';
import { fmt, higherText } from '../format.js';
import { median } from '../harness.js';
import type { Figure, SuiteContext } from '../model.js';
import { CLIENTS } from './compare.js';
import { spawnContender, type Contender, type ContenderConfig } from './contender.js';
import { openRimthanPg } from './rimthan.js';

/** Completed workflows/s with `workers` processes. */
async function withWorkers(base: ContenderConfig, workers: number, ms: number, rounds: number): Promise<number> {
  const procs: Contender[] = [];
  try {
    for (let i = 0; i < workers; i++) {
      procs.push(await spawnContender({ ...base, workerId: `w${workers}-${i}`, shared: true }));
    }
    const clients = Math.max(1, Math.floor(CLIENTS / workers));
    await Promise.all(procs.map((p) => p.call({ op: 'closed', clients, ms: 300 })));
    const sums: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const replies = await Promise.all(procs.map((p) => p.call({ op: 'closed', clients, ms })));
      sums.push(replies.reduce((sum, reply) => sum + (reply.perSecond ?? 0), 0));
    }
    return median(sums);
  } finally {
    for (const p of procs) await p.close();
  }
}

/** Part workers. */
export async function workersFigures(ctx: SuiteContext, base: ContenderConfig): Promise<Figure[]> {
  const ms = ctx.long ? 3000 : 1500;
  const rounds = ctx.long ? 3 : 2;
  const counts = [1, 2, 4];
  const results: number[] = [];
  for (const n of counts) {
    ctx.progress(`postgres/workers: ${n} worker process(es), ${rounds} windows of ${fmt(ms / 1000)} s`);
    results.push(await withWorkers(base, n, ms, rounds));
  }
  const one = results[0] ?? 1;
  return counts.slice(1).map((n, i) => {
    const value = results[i + 1] ?? 0;
    return {
      name: `completed workflows/s with ${n} worker processes on one schema (${CLIENTS} clients in all)`,
      rimthan: { value, unit: 'workflows/s' },
      baseline: { label: '1 worker process', quantity: { value: one, unit: 'workflows/s' } },
      ratio: { value: value / one, text: higherText(value / one) },
      note: `${fmt(value / n)} workflows/s per process; every count polls completions (a run may finish on another process); 2 cores shared with the PostgreSQL server`,
    };
  });
}

/** One failover: ms from the SIGKILL until a survivor's claim took over one of the dead worker's runs. */
async function failoverOnce(url: string, schema: string, leaseMs: number): Promise<number> {
  const stepMs = Math.max(200, Math.floor(leaseMs / 2));
  const victim = await spawnContender({
    engine: 'rimthan',
    url,
    schema,
    concurrency: 8,
    poolMax: 4,
    workerId: `victim-${randomUUID()}`,
    leaseMs,
    slowStepMs: stepMs,
  });
  const survivor = await openRimthanPg({
    url,
    schema,
    concurrency: 16,
    poolMax: 4,
    workerId: `survivor-${randomUUID()}`,
    leaseMs,
    slowStepMs: stepMs,
  });
  try {
    const { runIds = [] } = await victim.call({ op: 'startSlow', count: 4 });
    const store = survivor.runtime.store;
    const revisions = async (): Promise<number[]> =>
      Promise.all(runIds.map(async (id) => (await store.getRunById(id))?.record_revision ?? -1));
    // Kill it while its runs are in the middle (each has completed a vertex and is running the next).
    for (;;) {
      const records = await Promise.all(runIds.map((id) => store.getRunById(id)));
      if (records.every((r) => r !== undefined && r.checkpoint_revision >= 1 && r.status === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    victim.child.kill('SIGKILL');
    const killedAt = performance.now();
    const before = await revisions();
    for (;;) {
      const now = await revisions();
      if (now.some((r, i) => r !== before[i])) return performance.now() - killedAt;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await victim.close();
    await survivor.close();
  }
}

/** Part failover. */
export async function failoverFigures(ctx: SuiteContext, url: string, schema: string): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const leaseMs of [1000, 3000]) {
    ctx.progress(`postgres/failover: lease ${leaseMs} ms`);
    const ms = await failoverOnce(url, `${schema}_f${leaseMs}`, leaseMs);
    figures.push({
      name: `failover: SIGKILLed worker's run taken over by another worker, leaseMs ${leaseMs}`,
      rimthan: { value: ms, unit: 'ms' },
      baseline: { label: 'the lease length', quantity: { value: leaseMs, unit: 'ms' } },
      ratio: { value: ms / leaseMs, text: `${fmt(ms / leaseMs)}× the lease` },
      note: 'workers poll for expired leases every leaseMs/2, so a takeover comes between 1× and 1.5× the lease after the last renewal',
    });
  }
  return figures;
}
