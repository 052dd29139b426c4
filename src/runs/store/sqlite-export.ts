/**
 * Reads a whole SQLite run store for `migrate-store`: runs in creation order, each with every checkpoint, activity
 * entry and event, and the inputs they refer to, as raw rows (nothing re-encoded, so the copy is byte for byte). The caller holds
 * the file's write lock (BEGIN IMMEDIATE) for the whole read, so no worker or command writes meanwhile.
 */
import type Database from 'better-sqlite3';
import type { ActivityRow, CheckpointRow, RunRow } from './rows.js';
import { ACTIVITY_COLUMNS, RUN_COLUMNS } from './rows.js';

/** A row of `run_events` as stored (the payload is canonical JSON text). */
export interface EventRow {
  readonly run_id: string;
  readonly event_id: string;
  readonly name: string;
  readonly position: number;
  readonly payload: string;
  readonly sent_at: string;
}

export const EVENT_COLUMNS = 'run_id, event_id, name, position, payload, sent_at';

export interface ExportedRun {
  readonly run: RunRow;
  readonly checkpoints: readonly CheckpointRow[];
  readonly activities: readonly ActivityRow[];
  /** The events sent to the run (durable waits), by name and position. */
  readonly events: readonly EventRow[];
}

export interface ExportPage {
  readonly runs: readonly ExportedRun[];
  readonly inputs: readonly { sha256: string; canonical: string }[];
}

export interface SqliteExport {
  readonly totals: {
    readonly runs: number;
    readonly checkpoints: number;
    readonly activities: number;
    readonly inputs: number;
  };
  /** Runs with created_seq > afterSeq, oldest first, at most `limit`, with their rows and inputs. */
  page(afterSeq: number, limit: number): ExportPage;
}

/** Prepares the export statements on an open database (inside the caller's transaction). */
export function sqliteExport(db: Database.Database): SqliteExport {
  const count = (table: string): number => Number(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get());
  const runs = db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE created_seq > ? ORDER BY created_seq LIMIT ?`);
  const checkpoints = db.prepare(
    'SELECT run_id, revision, state, created_at FROM checkpoints WHERE run_id = ? ORDER BY revision',
  );
  const activities = db.prepare(
    `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE run_id = ? ORDER BY revision, ordinal`,
  );
  const events = db.prepare(`SELECT ${EVENT_COLUMNS} FROM run_events WHERE run_id = ? ORDER BY name, position`);
  const input = db.prepare('SELECT sha256, canonical FROM inputs WHERE sha256 = ?');
  return {
    totals: {
      runs: count('runs'),
      checkpoints: count('checkpoints'),
      activities: count('activities'),
      inputs: Number(db.prepare('SELECT count(DISTINCT input_sha256) FROM runs').pluck().get()),
    },
    page(afterSeq, limit) {
      const rows = runs.all(afterSeq, limit) as RunRow[];
      const digests = new Set(rows.map((r) => r.input_sha256));
      return {
        runs: rows.map((run) => ({
          run,
          checkpoints: checkpoints.all(run.run_id) as CheckpointRow[],
          activities: activities.all(run.run_id) as ActivityRow[],
          events: events.all(run.run_id) as EventRow[],
        })),
        inputs: [...digests].flatMap((sha) => {
          const row = input.get(sha) as { sha256: string; canonical: string } | undefined;
          return row === undefined ? [] : [row];
        }),
      };
    },
  };
}
