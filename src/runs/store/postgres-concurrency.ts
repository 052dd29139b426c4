/**
 * Concurrency slots on PostgreSQL (see RunConcurrency), for several workers on one database. Admission and promotion
 * each take the key's row lock in `run_slot_keys` first (an upsert, or SELECT ... FOR UPDATE) and only then count the
 * key's holders in a later statement, which under READ COMMITTED sees every admission and promotion committed before
 * the lock was granted: the bound holds exactly, whichever worker writes. A run that ends frees its slot by its own
 * commit (it stops matching HOLDS_SLOT); nothing on the commit path of any flow touches this file.
 */
import type pg from 'pg';
import { RimthanError } from '../../core/errors.js';
import { withTransaction } from '../../postgres/index.js';
import { planCommit, type PreparedCommit } from './commit-plan.js';
import {
  ADMITTED_SUMMARY,
  checkLimitedSeed,
  checkSlot,
  checkSweepLimit,
  HOLDS_SLOT,
  sweepKeysSql,
  limitedSeed,
  WAITS_FOR_SLOT,
} from './concurrency-plan.js';
import { UNSYNCED } from './postgres-batch-sql.js';
import { activityValues, encodeJsonColumns, isUniqueViolation, RUN_COLUMNS, rowToRun, type RunRow } from './rows.js';
import {
  StoreConflictError,
  WAIT_FOREVER,
  type Commit,
  type ConcurrencySlot,
  type NewRunRecord,
  type RunRecord,
} from './types.js';
import { checkRunId } from './validate.js';

function slotQueries(q: string) {
  return {
    input: `INSERT INTO ${q}.inputs (sha256, canonical) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING`,
    insertRun: `INSERT INTO ${q}.runs (run_id, session_id, definition_name, definition_version, parent_run_id,
        input_sha256, idempotency_key, status, status_summary, cancel_requested, checkpoint_revision, activity_cursor,
        artifacts, artifact_namespace, interrupt, created_at, updated_at, record_revision)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, -1, 0, $11, $12, $13, $14, $15, 0)`,
    lockRun: `SELECT ${RUN_COLUMNS} FROM ${q}.runs WHERE run_id = $1 FOR UPDATE`,
    upsertKey: `INSERT INTO ${q}.run_slot_keys (definition_name, slot_key, slot_limit) VALUES ($1, $2, $3)
      ON CONFLICT (definition_name, slot_key) DO UPDATE SET slot_limit = EXCLUDED.slot_limit`,
    lockKey: `SELECT slot_limit FROM ${q}.run_slot_keys WHERE definition_name = $1 AND slot_key = $2 FOR UPDATE`,
    occupancy: `SELECT
        (SELECT count(*) FROM ${q}.runs WHERE definition_name = $1 AND slot_key = $2 AND ${HOLDS_SLOT})::int AS holders,
        EXISTS (SELECT 1 FROM ${q}.runs WHERE definition_name = $1 AND slot_key = $2 AND ${WAITS_FOR_SLOT}) AS queue`,
    checkpoint: `INSERT INTO ${q}.checkpoints (run_id, revision, state, created_at) VALUES ($1, $2, $3, $4)`,
    activity: `INSERT INTO ${q}.activities (run_id, revision, ordinal, event_id, kind, run_status, occurred_at,
        vertex_id, vertex_label, completed_vertices, total_vertices, message)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (event_id) DO NOTHING`,
    seedRun: `UPDATE ${q}.runs SET status = $3, status_summary = $4, checkpoint_revision = $5,
        activity_cursor = activity_cursor + $6, updated_at = $7, record_revision = $8, slot_key = $9, wait_until = $10,
        lease_owner = NULL, lease_expires_at = NULL
      WHERE run_id = $1 AND record_revision = $2`,
    runSlot: `SELECT definition_name, slot_key FROM ${q}.runs WHERE run_id = $1`,
    promote: `WITH relaxed AS ${UNSYNCED},
      h AS (SELECT count(*)::int AS n FROM ${q}.runs WHERE definition_name = $1 AND slot_key = $2 AND ${HOLDS_SLOT}),
      w AS (SELECT run_id FROM ${q}.runs WHERE definition_name = $1 AND slot_key = $2 AND ${WAITS_FOR_SLOT}
        ORDER BY created_seq LIMIT GREATEST($3 - (SELECT n FROM h), 0))
      UPDATE ${q}.runs SET wait_until = NULL, status_summary = $4, record_revision = record_revision + 1 FROM relaxed
      WHERE run_id IN (SELECT run_id FROM w) AND ${WAITS_FOR_SLOT} RETURNING run_id`,
    dropKey: `DELETE FROM ${q}.run_slot_keys WHERE definition_name = $1 AND slot_key = $2 AND NOT EXISTS (
        SELECT 1 FROM ${q}.runs WHERE definition_name = $1 AND slot_key = $2
          AND status IN ('pending', 'running', 'interrupted'))`,
    waitingKeys: sweepKeysSql(`${q}.`, '$1'),
  } as const;
}

type SlotQueries = ReturnType<typeof slotQueries>;

/** The RunConcurrency role of the PostgreSQL store, over its pool and (quoted) schema. */
export class PostgresConcurrency {
  readonly #sql: SlotQueries;
  readonly #pool: () => pg.Pool;
  /** Input text putInput staged but the writer may not have written yet (see PostgresWriter.stagedInput). */
  readonly #staged: (sha256: string) => string | undefined;

  constructor(pool: () => pg.Pool, quotedSchema: string, staged: (sha256: string) => string | undefined) {
    this.#pool = pool;
    this.#sql = slotQueries(quotedSchema);
    this.#staged = staged;
  }

  /** The caller (the store) has checked the record. */
  async createLimitedRun(record: NewRunRecord, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    checkSlot(slot);
    checkLimitedSeed(seed);
    const sql = this.#sql;
    return this.#write(async (client) => {
      const canonical = this.#staged(record.input_sha256);
      if (canonical !== undefined) await client.query(sql.input, [record.input_sha256, canonical]);
      const json = encodeJsonColumns(record);
      await client.query(sql.insertRun, [
        record.run_id,
        record.session_id,
        record.definition_name,
        record.definition_version,
        record.parent_run_id,
        record.input_sha256,
        record.idempotency_key,
        record.status,
        record.status_summary,
        record.cancel_requested,
        json.artifacts,
        json.artifact_namespace,
        json.interrupt,
        record.created_at,
        record.updated_at,
      ]);
      return this.#admit(client, seed, slot);
    });
  }

  async seedLimitedRun(seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    checkSlot(slot);
    checkLimitedSeed(seed);
    return this.#write((client) => this.#admit(client, seed, slot));
  }

  async promoteAfter(run_id: string): Promise<string[]> {
    checkRunId(run_id);
    const found = await this.#pool().query<{ definition_name: string; slot_key: string | null }>(this.#sql.runSlot, [
      run_id,
    ]);
    const row = found.rows[0];
    if (row?.slot_key == null) return [];
    const key = row.slot_key;
    return withTransaction(this.#pool(), (client) => this.#promote(client, row.definition_name, key));
  }

  async promoteWaiting(limit: number): Promise<string[]> {
    checkSweepLimit(limit);
    const keys = await this.#pool().query<{ definition_name: string; slot_key: string }>(this.#sql.waitingKeys, [
      limit,
    ]);
    const admitted: string[] = [];
    for (const k of keys.rows) {
      const ids = await withTransaction(this.#pool(), (client) => this.#promote(client, k.definition_name, k.slot_key));
      admitted.push(...ids);
    }
    return admitted;
  }

  /** One synced transaction; a duplicate run, checkpoint or idempotency key is a conflict (nothing is written). */
  async #write(fn: (client: pg.PoolClient) => Promise<RunRecord>): Promise<RunRecord> {
    try {
      return await withTransaction(this.#pool(), fn);
    } catch (error) {
      if (isUniqueViolation(error))
        throw new StoreConflictError('run id, idempotency key or checkpoint already exists');
      throw error;
    }
  }

  /** Seeds the locked, unseeded run as admitted or waiting, after taking the key's lock. */
  async #admit(client: pg.PoolClient, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    const sql = this.#sql;
    const row = (await client.query<RunRow>(sql.lockRun, [seed.run_id])).rows[0];
    if (row === undefined) throw new RimthanError('not_found', 'run not found');
    const current = rowToRun(row);
    const name = current.definition_name;
    await client.query(sql.upsertKey, [name, slot.key, slot.limit]);
    const occupancy = (await client.query<{ holders: number; queue: boolean }>(sql.occupancy, [name, slot.key]))
      .rows[0];
    const admitted = occupancy !== undefined && occupancy.holders < slot.limit && !occupancy.queue;
    const prepared = limitedSeed(current, seed, admitted);
    const next = planCommit(current, prepared.commit);
    const inserted = await this.#appendSeedRows(client, prepared);
    const updated = await client.query(sql.seedRun, [
      current.run_id,
      current.record_revision,
      next.status,
      next.status_summary,
      next.checkpoint_revision,
      inserted,
      next.updated_at,
      next.record_revision,
      slot.key,
      admitted ? null : WAIT_FOREVER,
    ]);
    if (updated.rowCount !== 1) throw new StoreConflictError('run record changed since it was read');
    return { ...next, activity_cursor: next.activity_cursor + inserted };
  }

  /** Writes the seed's checkpoint and activities; returns how many activities were new. */
  async #appendSeedRows(client: pg.PoolClient, prepared: PreparedCommit): Promise<number> {
    const { commit, checkpointState } = prepared;
    if (commit.checkpoint !== undefined && checkpointState !== undefined) {
      const c = commit.checkpoint;
      await client.query(this.#sql.checkpoint, [commit.run_id, c.revision, checkpointState, c.created_at]);
    }
    let inserted = 0;
    for (const entry of commit.activities ?? []) {
      inserted += (await client.query(this.#sql.activity, activityValues(commit.run_id, entry))).rowCount ?? 0;
    }
    return inserted;
  }

  /** Admits the oldest waiting runs of the key while slots are free, under its lock; forgets an idle key. */
  async #promote(client: pg.PoolClient, name: string, key: string): Promise<string[]> {
    const sql = this.#sql;
    const locked = (await client.query<{ slot_limit: number }>(sql.lockKey, [name, key])).rows[0];
    if (locked === undefined) return [];
    const promoted = await client.query<{ run_id: string }>(sql.promote, [
      name,
      key,
      locked.slot_limit,
      ADMITTED_SUMMARY,
    ]);
    if (promoted.rows.length === 0) await client.query(sql.dropKey, [name, key]);
    return promoted.rows.map((r) => r.run_id);
  }
}
