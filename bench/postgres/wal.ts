/**
 * PostgreSQL part `wal`: WAL flushes (pg_stat_wal.wal_sync, server-wide) and committed transactions
 * (pg_stat_database.xact_commit of the engine's own database) per workflow, for each engine: a fresh contender process
 * runs N workflows one at a time and exits (a backend reports its statistics when it exits); a contender that runs none
 * is measured the same way and subtracted, so setup and shutdown are not charged to the workflows.
 */
import pg from 'pg';
import { fmt } from '../format.js';
import type { Figure } from '../model.js';
import { spawnContender, type Contender, type ContenderConfig } from './contender.js';

export interface Counters {
  readonly walSync: number;
  readonly xact: number;
}

async function counters(admin: pg.Client, database: string): Promise<Counters> {
  const wal = await admin.query<{ wal_sync: string }>('SELECT wal_sync FROM pg_stat_wal');
  const db = await admin.query<{ xact_commit: string }>('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [
    database,
  ]);
  return { walSync: Number(wal.rows[0]?.wal_sync ?? 0), xact: Number(db.rows[0]?.xact_commit ?? 0) };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 700));

async function delta(
  admin: pg.Client,
  database: string,
  spawn: () => Promise<Contender>,
  runs: number,
): Promise<Counters> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const before = await counters(admin, database);
  const c = await spawn();
  if (runs > 0) await c.call({ op: 'sequential', runs });
  await c.close();
  await settle();
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const after = await counters(admin, database);
  return { walSync: after.walSync - before.walSync, xact: after.xact - before.xact };
}

/** Per-workflow WAL flushes and commits of one engine, each measurement in a fresh process made by `spawn`. */
export async function perWorkflow(
  admin: pg.Client,
  database: string,
  spawn: () => Promise<Contender>,
  runs: number,
): Promise<Counters> {
  const idle = await delta(admin, database, spawn, 0);
  const busy = await delta(admin, database, spawn, runs);
  return { walSync: (busy.walSync - idle.walSync) / runs, xact: (busy.xact - idle.xact) / runs };
}

export interface WalEngine {
  readonly label: string;
  readonly config: ContenderConfig;
  readonly database: string;
}

/** Part wal: one figure per baseline, Rimthan's flushes per workflow against it. */
export async function walFigures(
  adminUrl: string,
  rimthan: WalEngine,
  baselines: readonly WalEngine[],
  runs: number,
): Promise<{ figures: Figure[]; notes: string[] }> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const rim = await perWorkflow(admin, rimthan.database, () => spawnContender(rimthan.config), runs);
    const figures: Figure[] = [];
    const notes: string[] = [];
    for (const b of baselines) {
      const base = await perWorkflow(admin, b.database, () => spawnContender(b.config), runs);
      figures.push({
        name: `WAL flushes per workflow (pg_stat_wal.wal_sync; ${runs} workflows one at a time)`,
        rimthan: { value: rim.walSync, unit: 'flushes/workflow' },
        baseline: { label: b.label, quantity: { value: base.walSync, unit: 'flushes/workflow' } },
        ...(rim.walSync > 0
          ? { ratio: { value: base.walSync / rim.walSync, text: `${fmt(base.walSync / rim.walSync)}× fewer` } }
          : {}),
        note: `committed transactions per workflow in the engine's database: Rimthan ${fmt(rim.xact)}, ${b.label} ${fmt(base.xact)} (reads included)`,
      });
    }
    notes.push(
      'WAL flushes are counted server-wide (pg_stat_wal): other clients of the same server during the measurement add to both sides; the committed-transaction counts are per database and ours alone.',
    );
    return { figures, notes };
  } finally {
    await admin.end();
  }
}
