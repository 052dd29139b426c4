/**
 * The postgres suite: durable runs on PostgreSQL against DBOS and LangGraph's PostgresSaver on the same server in the
 * same run (steps, closed, starts, wal), and Rimthan alone across worker processes and failover (workers, failover).
 * Everything lives in the bench's own database (created when missing): Rimthan and LangGraph in fresh schemas, DBOS
 * in its own system database; all of it is dropped when the suite ends. Skipped when PostgreSQL does not answer.
 */
import { randomBytes } from 'node:crypto';
import { SUPERVISOR_DEFAULTS } from '../../src/runs/index.js';
import type { Figure, Suite, SuiteContext } from '../model.js';
import { closedFigures, startsFigures, stepsFigures, type Contenders } from '../postgres/compare.js';
import { spawnContender, type ContenderConfig } from '../postgres/contender.js';
import { BENCH_DATABASE } from '../postgres/engine.js';
import { failoverFigures, workersFigures } from '../postgres/scale.js';
import { dropBenchSchemas, pgAdmin, pgUrl } from '../postgres/server.js';
import { walFigures } from '../postgres/wal.js';

const DBOS_DATABASE = `${BENCH_DATABASE}_dbos`;
const url = pgUrl;
const admin = pgAdmin;

async function serverFacts(): Promise<string> {
  return admin(async (c) => {
    const setting = async (name: string): Promise<string> =>
      (await c.query<{ v: string }>('SELECT current_setting($1) AS v', [name])).rows[0]?.v ?? '?';
    const version = await setting('server_version');
    const sync = await setting('synchronous_commit');
    const method = await setting('wal_sync_method');
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [BENCH_DATABASE]);
    if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${BENCH_DATABASE}`);
    return `PostgreSQL ${version}, synchronous_commit=${sync}, wal_sync_method=${method}, fsync on (one local server for every engine)`;
  });
}

async function cleanup(schemas: readonly string[]): Promise<void> {
  await dropBenchSchemas(schemas);
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${DBOS_DATABASE} WITH (FORCE)`));
}

export const suite: Suite = {
  name: 'postgres',
  description: 'Rimthan on PostgreSQL vs DBOS and LangGraph PostgresSaver; worker processes; failover',
  async run(ctx: SuiteContext) {
    let facts: string;
    try {
      facts = await serverFacts();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return {
        figures: [],
        notes: [],
        skipped: `PostgreSQL unreachable (${typeof code === 'string' ? code : 'no answer'}); set RIMTHAN_BENCH_PG_URL`,
      };
    }
    const tag = randomBytes(4).toString('hex');
    const schemas = [`bench_rimthan_${tag}`, `bench_langgraph_${tag}`, `bench_workers_${tag}`, `bench_wal_${tag}`];
    const failoverBase = `bench_failover_${tag}`;
    const rimthanConfig: ContenderConfig = {
      engine: 'rimthan',
      url: url(BENCH_DATABASE),
      schema: schemas[0] as string,
      concurrency: Number(process.env['RIMTHAN_BENCH_CONCURRENCY'] ?? SUPERVISOR_DEFAULTS.concurrency),
      poolMax: 8,
    };
    const dbosConfig: ContenderConfig = {
      engine: 'dbos',
      url: url(DBOS_DATABASE),
      schema: 'dbos',
      concurrency: 0,
      poolMax: 10,
    };
    const lgConfig: ContenderConfig = {
      engine: 'langgraph',
      url: url(BENCH_DATABASE),
      schema: schemas[1] as string,
      concurrency: 0,
      poolMax: 10,
    };
    const wanted = (part: string): boolean => ctx.parts === undefined || ctx.parts.has(part);
    const figures: Figure[] = [];
    const notes: string[] = [facts];
    try {
      if (wanted('steps') || wanted('closed') || wanted('starts')) {
        const c: Contenders = {
          rimthan: await spawnContender(rimthanConfig),
          dbos: await spawnContender(dbosConfig),
          langgraph: await spawnContender(lgConfig),
        };
        try {
          for (const who of [c.rimthan, c.dbos, c.langgraph]) await who.call({ op: 'sequential', runs: 5 });
          if (wanted('steps')) figures.push(...(await stepsFigures(ctx, c)));
          if (wanted('closed')) figures.push(...(await closedFigures(ctx, c)));
          if (wanted('starts')) figures.push(...(await startsFigures(ctx, c)));
        } finally {
          for (const who of [c.rimthan, c.dbos, c.langgraph]) await who.close();
        }
      }
      if (wanted('wal')) {
        ctx.progress('postgres/wal: WAL flushes per workflow, one fresh process per engine');
        const wal = await walFigures(
          url('postgres'),
          { label: 'Rimthan', config: { ...rimthanConfig, schema: schemas[3] as string }, database: BENCH_DATABASE },
          [
            { label: 'DBOS 5', config: dbosConfig, database: DBOS_DATABASE },
            { label: 'LangGraph PostgresSaver', config: lgConfig, database: BENCH_DATABASE },
          ],
          ctx.long ? 100 : 40,
        );
        figures.push(...wal.figures);
        notes.push(...wal.notes);
      }
      if (wanted('workers'))
        figures.push(...(await workersFigures(ctx, { ...rimthanConfig, schema: schemas[2] as string })));
      if (wanted('failover')) {
        schemas.push(`${failoverBase}_f1000`, `${failoverBase}_f3000`);
        figures.push(...(await failoverFigures(ctx, url(BENCH_DATABASE), failoverBase)));
      }
    } finally {
      await cleanup(schemas);
    }
    notes.push(
      `Every engine runs the same 10-step workflow of trivial steps in its own process on the same server; every ` +
        `acknowledged start and every reported step is durable (synchronous_commit on). Rimthan: PostgresRunStore ` +
        `(group commit: one statement and one WAL flush per batch, a run's pipelined vertices coalesced), Supervisor ` +
        `concurrency ${rimthanConfig.concurrency}, pipelineDepth ${SUPERVISOR_DEFAULTS.pipelineDepth}. DBOS: ` +
        `DBOS.runStep per step (each step's output stored before the next runs). LangGraph: PostgresSaver, ` +
        `durability "sync".`,
    );
    return { figures, notes };
  },
};
