/**
 * `migrate-store`: moves a whole SQLite run store into PostgreSQL — every run with its checkpoints, history entries,
 * events, idempotency key and session, and the inputs they refer to, in-flight runs included. A parked run (a durable
 * wait) arrives unparked: a worker on the target claims it at once, its vertex runs again and parks again from the
 * waits its checkpoint recorded. A run waiting for a concurrency slot arrives still waiting (migrate-slots.ts).
 *
 * The source is paused for the whole move: the command holds its write lock (BEGIN IMMEDIATE), and refuses to start
 * while a worker holds a live lease (a server executing runs must be stopped first). The copy goes into the target in
 * ONE transaction, is read back and compared with the source (a SHA-256 over every copied row, and the counts) before
 * it commits, so the target gets all of it or nothing. Then the source's unfinished runs are leased to
 * `rimthan-migrate-store` for a century, so a worker started on the old file by mistake runs none of them twice. On the
 * target no run carries a lease: workers there resume the in-flight runs from their latest checkpoints at once.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { pgDriver } from '../../postgres/index.js';
import { RimthanError } from '../../core/errors.js';
import { migratePostgres, quoteSchema } from './postgres-schema.js';
import { activityValues, rowToActivity, rowToRun, type ActivityRow, type CheckpointRow, type RunRow } from './rows.js';
import { SqliteRunStore } from './sqlite.js';
import { copySlots } from './migrate-slots.js';
import { EVENT_COLUMNS, sqliteExport, type EventRow, type ExportedRun } from './sqlite-export.js';

/** Lease owner of the source's unfinished runs once they were moved. */
export const MIGRATED_LEASE_OWNER = 'rimthan-migrate-store';
const CENTURY_MS = 100 * 365 * 24 * 3600 * 1000;
const UNFINISHED = "('pending', 'running', 'interrupted')";

export interface MigrateStoreOptions {
  /** The SQLite file to move (must exist). */
  readonly from: string;
  /** The PostgreSQL target (schema created when missing; it must not hold any of the runs). */
  readonly to: { readonly connectionString: string; readonly schema?: string };
  readonly onProgress?: (message: string) => void;
  /** Runs per copied page (default 500). */
  readonly pageSize?: number;
}

export interface MigrationReport {
  readonly runs: number;
  readonly checkpoints: number;
  readonly activities: number;
  readonly inputs: number;
  /** Unfinished runs (pending, running, interrupted) that continue on the target. */
  readonly unfinished: number;
  /** SHA-256 over every copied row, equal on both sides. */
  readonly digest: string;
}

/** Adds one run's rows to a digest in a form both drivers produce alike (no created_seq: the target renumbers). */
function hashRun(hash: ReturnType<typeof createHash>, r: ExportedRun): void {
  const { created_seq: _seq, ...record } = rowToRun(r.run);
  hash.update(JSON.stringify(record));
  for (const c of r.checkpoints) hash.update(JSON.stringify([c.run_id, Number(c.revision), c.state, c.created_at]));
  for (const a of r.activities) hash.update(JSON.stringify(rowToActivity(a)));
  for (const e of r.events) hash.update(JSON.stringify([e.run_id, e.event_id, e.name, Number(e.position), e.payload]));
}

function columns(rows: readonly unknown[][], width: number): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) row.forEach((v, i) => out[i]?.push(v));
  return out;
}

function insertSql(q: string) {
  return {
    runs: `INSERT INTO ${q}.runs (run_id, session_id, definition_name, definition_version, parent_run_id, input_sha256,
        idempotency_key, status, status_summary, cancel_requested, checkpoint_revision, activity_cursor, artifacts,
        artifact_namespace, interrupt, created_at, updated_at, record_revision)
      SELECT u.run_id, u.session_id, u.definition_name, u.definition_version, u.parent_run_id, u.input_sha256,
        u.idempotency_key, u.status, u.status_summary, u.cancel_requested, u.checkpoint_revision, u.activity_cursor,
        u.artifacts, u.artifact_namespace, u.interrupt, u.created_at, u.updated_at, u.record_revision
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
        $9::text[], $10::bool[], $11::int[], $12::int[], $13::text[], $14::text[], $15::text[], $16::text[],
        $17::text[], $18::int[]) WITH ORDINALITY AS u(run_id, session_id, definition_name, definition_version,
        parent_run_id, input_sha256, idempotency_key, status, status_summary, cancel_requested, checkpoint_revision,
        activity_cursor, artifacts, artifact_namespace, interrupt, created_at, updated_at, record_revision, ord)
      ORDER BY u.ord`,
    checkpoints: `INSERT INTO ${q}.checkpoints (run_id, revision, state, created_at)
      SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])`,
    activities: `INSERT INTO ${q}.activities (run_id, revision, ordinal, event_id, kind, run_status, occurred_at,
        vertex_id, vertex_label, completed_vertices, total_vertices, message)
      SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::text[], $10::int[], $11::int[], $12::text[])`,
    inputs: `INSERT INTO ${q}.inputs (sha256, canonical) SELECT * FROM unnest($1::text[], $2::text[])
      ON CONFLICT (sha256) DO NOTHING`,
    events: `INSERT INTO ${q}.run_events (${EVENT_COLUMNS})
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[])`,
    readEvents: `SELECT ${EVENT_COLUMNS} FROM ${q}.run_events WHERE run_id = ANY($1::text[])
      ORDER BY run_id, name COLLATE "C", position`,
    taken: `SELECT run_id FROM ${q}.runs WHERE run_id = ANY($1::text[]) LIMIT 1`,
    readRuns: `SELECT * FROM ${q}.runs WHERE run_id = ANY($1::text[]) ORDER BY created_seq`,
    readCheckpoints: `SELECT run_id, revision, state, created_at FROM ${q}.checkpoints WHERE run_id = ANY($1::text[])
      ORDER BY run_id, revision`,
    readActivities: `SELECT * FROM ${q}.activities WHERE run_id = ANY($1::text[]) ORDER BY run_id, revision, ordinal`,
  };
}

async function copyPage(
  client: pg.PoolClient,
  sql: ReturnType<typeof insertSql>,
  page: readonly ExportedRun[],
): Promise<void> {
  const runRows = page.map(({ run: r }) => [
    r.run_id,
    r.session_id,
    r.definition_name,
    r.definition_version,
    r.parent_run_id,
    r.input_sha256,
    r.idempotency_key,
    r.status,
    r.status_summary,
    r.cancel_requested === true || r.cancel_requested === 1,
    r.checkpoint_revision,
    r.activity_cursor,
    r.artifacts,
    r.artifact_namespace,
    r.interrupt,
    r.created_at,
    r.updated_at,
    r.record_revision,
  ]);
  await client.query(sql.runs, columns(runRows, 18));
  const cps = page.flatMap((r) => r.checkpoints.map((c) => [c.run_id, c.revision, c.state, c.created_at]));
  if (cps.length > 0) await client.query(sql.checkpoints, columns(cps, 4));
  const acts = page.flatMap((r) => r.activities.map((a) => activityValues(a.run_id, rowToActivity(a))));
  if (acts.length > 0) await client.query(sql.activities, columns(acts, 12));
  const events = page.flatMap((r) =>
    r.events.map((e) => [e.run_id, e.event_id, e.name, e.position, e.payload, e.sent_at]),
  );
  if (events.length > 0) await client.query(sql.events, columns(events, 6));
}

/** The target's rows of `ids`, in the source's order, grouped like the export. */
async function readBack(
  client: pg.PoolClient,
  sql: ReturnType<typeof insertSql>,
  ids: readonly string[],
): Promise<ExportedRun[]> {
  const runs = (await client.query<RunRow>(sql.readRuns, [ids])).rows;
  const cps = (await client.query<CheckpointRow>(sql.readCheckpoints, [ids])).rows;
  const acts = (await client.query<ActivityRow>(sql.readActivities, [ids])).rows;
  const events = (await client.query<EventRow>(sql.readEvents, [ids])).rows;
  const byId = new Map(runs.map((r) => [r.run_id, r]));
  return ids.flatMap((id) => {
    const run = byId.get(id);
    if (run === undefined) return [];
    return [
      {
        run,
        checkpoints: cps.filter((c) => c.run_id === id),
        activities: acts.filter((a) => a.run_id === id),
        events: events.filter((e) => e.run_id === id),
      },
    ];
  });
}

/** Moves the SQLite store at `from` into PostgreSQL; see the file comment. */
export async function migrateStore(options: MigrateStoreOptions): Promise<MigrationReport> {
  const progress = options.onProgress ?? (() => undefined);
  const pageSize = options.pageSize ?? 500;
  if (!existsSync(options.from)) throw new RimthanError('store_unavailable', `no SQLite run store at ${options.from}`);
  const upgrade = new SqliteRunStore(options.from);
  await upgrade.open(); // brings an older file to the current schema
  await upgrade.close();
  const schema = options.to.schema ?? 'public';
  const q = quoteSchema(schema);
  const pool = new (pgDriver().Pool)({ connectionString: options.to.connectionString, max: 1 });
  pool.on('error', () => undefined);
  const db = new Database(options.from, { timeout: 5000 });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    await migratePostgres(pool, schema);
    db.exec('BEGIN IMMEDIATE');
    try {
      const now = Date.now();
      const moved = db.prepare('SELECT count(*) FROM runs WHERE lease_owner = ?').pluck().get(MIGRATED_LEASE_OWNER);
      if (Number(moved) > 0)
        throw new RimthanError(
          'conflict',
          'this store was moved already (its unfinished runs are held by migrate-store)',
        );
      const live = db
        .prepare(
          `SELECT lease_owner FROM runs WHERE status = 'running' AND lease_owner IS NOT NULL AND lease_expires_at > ? LIMIT 1`,
        )
        .pluck()
        .get(now) as string | undefined;
      if (live !== undefined) {
        throw new RimthanError(
          'store_in_use',
          `runs are executing on worker ${live}: stop every rimthan serve using this store, then move it`,
        );
      }
      const source = sqliteExport(db);
      const unfinished = Number(db.prepare(`SELECT count(*) FROM runs WHERE status IN ${UNFINISHED}`).pluck().get());
      progress(
        `moving ${source.totals.runs} runs (${unfinished} unfinished), ${source.totals.checkpoints} checkpoints, ${source.totals.activities} history entries`,
      );
      const client = await pool.connect();
      const sql = insertSql(q);
      const sent = createHash('sha256');
      const pages: string[][] = [];
      try {
        await client.query('BEGIN');
        let after = 0;
        let copied = 0;
        for (;;) {
          const page = source.page(after, pageSize);
          if (page.runs.length === 0) break;
          const ids = page.runs.map((r) => r.run.run_id);
          const taken = (await client.query<{ run_id: string }>(sql.taken, [ids])).rows[0];
          if (taken !== undefined) throw new RimthanError('conflict', `the target already holds run ${taken.run_id}`);
          if (page.inputs.length > 0) {
            await client.query(sql.inputs, [page.inputs.map((i) => i.sha256), page.inputs.map((i) => i.canonical)]);
          }
          await copyPage(client, sql, page.runs);
          for (const r of page.runs) hashRun(sent, r);
          pages.push(ids);
          copied += page.runs.length;
          after = Number(page.runs[page.runs.length - 1]?.run.created_seq ?? after);
          progress(`copied ${copied}/${source.totals.runs} runs`);
        }
        await copySlots(db, client, q);
        progress('verifying the copy');
        const received = createHash('sha256');
        let checkpoints = 0;
        let activities = 0;
        for (const ids of pages) {
          const back = await readBack(client, sql, ids);
          if (back.length !== ids.length) throw new RimthanError('internal', 'the copy lost runs; nothing was moved');
          for (const r of back) {
            hashRun(received, r);
            checkpoints += r.checkpoints.length;
            activities += r.activities.length;
          }
        }
        const digest = sent.digest('hex');
        if (
          received.digest('hex') !== digest ||
          checkpoints !== source.totals.checkpoints ||
          activities !== source.totals.activities
        ) {
          throw new RimthanError('internal', 'the copy differs from the source; nothing was moved');
        }
        await client.query('COMMIT');
        db.prepare(`UPDATE runs SET lease_owner = ?, lease_expires_at = ? WHERE status IN ${UNFINISHED}`).run(
          MIGRATED_LEASE_OWNER,
          now + CENTURY_MS,
        );
        db.exec('COMMIT');
        progress(`moved and verified: sha256 ${digest}`);
        return { ...source.totals, checkpoints, activities, unfinished, digest };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  } finally {
    db.close();
    await pool.end();
  }
}
