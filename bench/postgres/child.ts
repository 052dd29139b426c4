/**
 * A benchmark contender in its own process (DBOS is a per-process singleton, and separate processes keep one engine's
 * background work and garbage out of the other's timings). argv[2] is the JSON ContenderConfig; the parent sends
 * operations over IPC and gets one reply per operation.
 */
import { openDbos } from '../baselines/dbos.js';
import { openLangGraphPostgres } from '../baselines/langgraph-postgres.js';
import { clientsWindow as window, nowNs } from '../harness.js';
import { serveContender, type ContenderConfig, type ContenderOp, type ContenderReply } from './contender.js';
import type { PgEngine } from './engine.js';
import { PG_STEPS } from './engine.js';
import { openRimthanPg } from './rimthan.js';

type Engine = PgEngine & { startSlow?(count: number): Promise<string[]> };

async function open(config: ContenderConfig): Promise<Engine> {
  switch (config.engine) {
    case 'rimthan':
      return openRimthanPg({
        ...(config.slowStepMs === undefined ? {} : { slowStepMs: config.slowStepMs }),
        ...(config.shared === undefined ? {} : { shared: config.shared }),
        url: config.url,
        schema: config.schema,
        concurrency: config.concurrency,
        poolMax: config.poolMax,
        ...(config.workerId === undefined ? {} : { workerId: config.workerId }),
        ...(config.leaseMs === undefined ? {} : { leaseMs: config.leaseMs }),
      });
    case 'dbos':
      return openDbos(config.url, config.poolMax);
    case 'langgraph':
      return openLangGraphPostgres(config.url, config.schema);
  }
}

async function handle(engine: Engine, op: ContenderOp): Promise<ContenderReply> {
  switch (op.op) {
    case 'sequential': {
      const msPerStep: number[] = [];
      for (let i = 0; i < op.runs; i++) {
        const start = nowNs();
        await engine.runOnce();
        msPerStep.push(Number(nowNs() - start) / 1e6 / PG_STEPS);
      }
      return { ok: true, msPerStep };
    }
    case 'closed': {
      const w = await window(op.clients, op.ms, () => engine.runOnce());
      return { ok: true, perSecond: w.count / w.seconds, count: w.count };
    }
    case 'starts': {
      const w = await window(op.clients, op.ms, () => engine.startOnly());
      await engine.drain();
      return { ok: true, perSecond: w.count / w.seconds, count: w.count };
    }
    case 'startSlow': {
      if (engine.startSlow === undefined) throw new Error('this engine has no slow flow');
      return { ok: true, runIds: await engine.startSlow(op.count) };
    }
    case 'close':
      await engine.close();
      return { ok: true };
  }
}

serveContender<ContenderConfig, Engine>('bench contender', open, handle);
