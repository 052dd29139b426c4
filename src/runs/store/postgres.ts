/**
 * The shared run store: PostgreSQL through a `pg` Pool, for several workers on one database. Commits lock the run row
 * (SELECT ... FOR UPDATE) and check record_revision; leases use FOR UPDATE SKIP LOCKED under READ COMMITTED; wake-ups
 * travel as NOTIFY on one channel per schema and arrive through one dedicated LISTEN connection.
 */
import pg from 'pg';
import type { PoolConfig, PoolClient } from 'pg';
import { RimthanError } from '../../core/errors.js';
import { NotifyHub } from './notify-hub.js';
import { PostgresListener } from './postgres-listener.js';
import { activityPlaceholders, postgresQueries, type PostgresQueries } from './postgres-queries.js';
import { migratePostgres, quoteSchema, withTransaction } from './postgres-schema.js';
import {
  activityValues,
  cancelRequestCommit,
  encodeJsonColumns,
  isUniqueViolation,
  planCommit,
  rowToActivity,
  rowToCheckpoint,
  rowToRun,
  type ActivityRow,
  type CheckpointRow,
  type RunRow,
} from './rows.js';
import {
  StoreConflictError,
  type ActivityEntry,
  type Checkpoint,
  type Commit,
  type HistoryQuery,
  type ListQuery,
  type NewRunRecord,
  type RunRecord,
  type RunStore,
} from './types.js';
import {
  checkBatch,
  checkCancelRequest,
  checkUnseededQuery,
  checkCommit,
  checkExclude,
  checkHistoryQuery,
  checkInput,
  checkLease,
  checkListQuery,
  checkNewRun,
  STORE_LIMITS,
} from './validate.js';

export interface PostgresRunStoreOptions {
  /** `postgres://...`; merged with `pool` when both are given. */
  readonly connectionString?: string;
  /** Any pg Pool settings (host, user, max, ssl, ...). */
  readonly pool?: PoolConfig;
  /** Schema holding the tables (created when missing); default `public`. Lowercase identifier, ≤48 chars. */
  readonly schema?: string;
}

/** Cursor ordinal meaning "after every entry of the revision". */
const AFTER_WHOLE_REVISION = STORE_LIMITS.maxCounter + 1;

interface OpenState {
  readonly pool: pg.Pool;
  readonly listener: PostgresListener;
}

export class PostgresRunStore implements RunStore {
  readonly #config: PoolConfig;
  readonly #schema: string;
  readonly #sql: PostgresQueries;
  readonly #channel: string;
  readonly #hub = new NotifyHub();
  /** The last commit issued per run: the next one for that run waits for it (commits apply in call order). */
  readonly #tails = new Map<string, Promise<unknown>>();
  #state: OpenState | undefined;

  /** Validates the options; nothing connects before `open()`. */
  constructor(options: PostgresRunStoreOptions) {
    this.#schema = options.schema ?? 'public';
    this.#sql = postgresQueries(quoteSchema(this.#schema));
    this.#channel = this.#schema === 'public' ? 'rimthan_runs' : `rimthan_runs_${this.#schema}`;
    const connection = options.connectionString === undefined ? {} : { connectionString: options.connectionString };
    this.#config = { ...options.pool, ...connection };
  }

  /** Connects the pool and migrates the schema (serialised across processes by an advisory lock). Idempotent. */
  async open(): Promise<void> {
    if (this.#state !== undefined) return;
    const pool = new pg.Pool(this.#config);
    pool.on('error', () => {
      // An idle client failed; the pool drops it and the next query opens a fresh one.
    });
    try {
      await migratePostgres(pool, this.#schema);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const listener = new PostgresListener(this.#config, this.#channel, this.#hub);
    this.#state = { pool, listener };
    if (this.#hub.size > 0) void listener.start();
  }

  /** Stops listening and closes every connection. Idempotent. */
  async close(): Promise<void> {
    const state = this.#state;
    if (state === undefined) return;
    this.#state = undefined;
    this.#hub.clear();
    await state.listener.stop();
    await state.pool.end();
  }

  #pool(): pg.Pool {
    if (this.#state === undefined) throw new RimthanError('unavailable', 'run store is not open');
    return this.#state.pool;
  }

  async putInput(sha256: string, canonical: string): Promise<void> {
    checkInput(sha256, canonical);
    await this.#pool().query(this.#sql.putInput, [sha256, canonical]);
  }

  async getInput(sha256: string): Promise<string | undefined> {
    const result = await this.#pool().query<{ canonical: string }>(this.#sql.getInput, [sha256]);
    return result.rows[0]?.canonical;
  }

  async createRun(record: NewRunRecord): Promise<RunRecord> {
    checkNewRun(record);
    const json = encodeJsonColumns(record);
    const values = [
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
    ];
    try {
      const result = await this.#pool().query<RunRow>(this.#sql.insertRun, values);
      return rowToRun(firstRow(result.rows));
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreConflictError('run id or idempotency key already exists');
      throw error;
    }
  }

  async getRun(session_id: string, run_id: string): Promise<RunRecord | undefined> {
    return this.#oneRun(this.#sql.runBySession, [session_id, run_id]);
  }

  async getRunById(run_id: string): Promise<RunRecord | undefined> {
    return this.#oneRun(this.#sql.runById, [run_id]);
  }

  async findByIdempotencyKey(session_id: string, key: string): Promise<RunRecord | undefined> {
    return this.#oneRun(this.#sql.runByKey, [session_id, key]);
  }

  async #oneRun(text: string, values: unknown[]): Promise<RunRecord | undefined> {
    const row = (await this.#pool().query<RunRow>(text, values)).rows[0];
    return row === undefined ? undefined : rowToRun(row);
  }

  async listRuns(session_id: string, query: ListQuery): Promise<RunRecord[]> {
    checkListQuery(query);
    const result = await this.#pool().query<RunRow>(this.#sql.listRuns, [
      session_id,
      query.after_seq ?? 0,
      query.limit,
    ]);
    return result.rows.map(rowToRun);
  }

  async unseededRuns(created_before: string, limit: number): Promise<RunRecord[]> {
    checkUnseededQuery(created_before, limit);
    const result = await this.#pool().query<RunRow>(this.#sql.unseeded, [created_before, limit]);
    return result.rows.map(rowToRun);
  }

  /** See RunStore.commit; one run's commits run one after another in call order (pooled connections would race). */
  commit(commit: Commit): Promise<RunRecord> {
    try {
      checkCommit(commit);
      this.#pool();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const before = this.#tails.get(commit.run_id);
    const run = (): Promise<RunRecord> => this.#commitNow(commit);
    const result = before === undefined ? run() : before.then(run, run);
    const tail = result.catch(() => undefined);
    this.#tails.set(commit.run_id, tail);
    void tail.then(() => {
      if (this.#tails.get(commit.run_id) === tail) this.#tails.delete(commit.run_id);
    });
    return result;
  }

  async #commitNow(commit: Commit): Promise<RunRecord> {
    try {
      return await withTransaction(this.#pool(), (client) => this.#applyCommit(client, commit));
    } catch (error) {
      if (isUniqueViolation(error)) throw new StoreConflictError('checkpoint or activity position already taken');
      throw error;
    }
  }

  async #applyCommit(client: PoolClient, commit: Commit): Promise<RunRecord> {
    const row = (await client.query<RunRow>(this.#sql.runByIdForUpdate, [commit.run_id])).rows[0];
    if (row === undefined) throw new RimthanError('not_found', 'run not found');
    const { next, checkpointState } = planCommit(rowToRun(row), commit);
    if (commit.checkpoint !== undefined && checkpointState !== undefined) {
      const cp = commit.checkpoint;
      await client.query(this.#sql.insertCheckpoint, [commit.run_id, cp.revision, checkpointState, cp.created_at]);
    }
    let inserted = 0;
    const activities = commit.activities ?? [];
    if (activities.length > 0) {
      const text =
        this.#sql.insertActivitiesPrefix + activityPlaceholders(activities.length) + this.#sql.insertActivitiesSuffix;
      const values = activities.flatMap((entry) => activityValues(commit.run_id, entry));
      inserted = (await client.query(text, values)).rowCount ?? 0;
    }
    const final: RunRecord = { ...next, activity_cursor: next.activity_cursor + inserted };
    const json = encodeJsonColumns(final);
    const updated = await client.query(this.#sql.updateRun, [
      final.run_id,
      final.status,
      final.status_summary,
      final.cancel_requested,
      final.checkpoint_revision,
      final.activity_cursor,
      json.artifacts,
      json.interrupt,
      final.updated_at,
      final.record_revision,
      commit.expected_record_revision,
    ]);
    if (updated.rowCount !== 1) throw new StoreConflictError('run record changed since it was read');
    if (commit.lease !== undefined) {
      const lease = [final.run_id, commit.lease.worker_id, commit.lease.lease_ms];
      const taken = await client.query(this.#sql.takeLease, lease);
      if (taken.rowCount !== 1) throw new StoreConflictError('another worker holds the run lease');
    }
    return final;
  }

  /** See RunStore.requestCancel: the run's row is locked for the read and the write. */
  async requestCancel(run_id: string, reason: string, updated_at: string): Promise<RunRecord | undefined> {
    checkCancelRequest(run_id, reason, updated_at);
    return withTransaction(this.#pool(), async (client) => {
      const row = (await client.query<RunRow>(this.#sql.runByIdForUpdate, [run_id])).rows[0];
      if (row === undefined) return undefined;
      const current = rowToRun(row);
      const request = cancelRequestCommit(current, reason, updated_at);
      return request === undefined ? current : this.#applyCommit(client, request);
    });
  }

  async latestCheckpoint(run_id: string): Promise<Checkpoint | undefined> {
    const row = (await this.#pool().query<CheckpointRow>(this.#sql.latestCheckpoint, [run_id])).rows[0];
    return row === undefined ? undefined : rowToCheckpoint(row);
  }

  async history(run_id: string, query: HistoryQuery): Promise<ActivityEntry[]> {
    checkHistoryQuery(query);
    const pool = this.#pool();
    if (query.after_revision === undefined) {
      return (await pool.query<ActivityRow>(this.#sql.historyFirst, [run_id, query.limit])).rows.map(rowToActivity);
    }
    let ordinal = AFTER_WHOLE_REVISION;
    if (query.after_event_id !== undefined) {
      const found = await pool.query<{ ordinal: number }>(this.#sql.eventOrdinal, [
        run_id,
        query.after_revision,
        query.after_event_id,
      ]);
      const hit = found.rows[0];
      if (hit === undefined)
        throw new RimthanError('invalid_argument', 'after_event_id is not an event of after_revision');
      ordinal = hit.ordinal;
    }
    const values = [run_id, query.after_revision, ordinal, query.limit];
    return (await pool.query<ActivityRow>(this.#sql.historyAfter, values)).rows.map(rowToActivity);
  }

  async claimRuns(
    worker_id: string,
    lease_ms: number,
    limit: number,
    exclude: readonly string[] = [],
  ): Promise<RunRecord[]> {
    checkLease(worker_id, lease_ms);
    checkBatch('limit', limit);
    checkExclude(exclude);
    if (limit === 0) return [];
    const result = await this.#pool().query<RunRow>(this.#sql.claim, [worker_id, lease_ms, limit, [...exclude]]);
    return result.rows.map(rowToRun).sort((a, b) => a.created_seq - b.created_seq);
  }

  async renewLeases(worker_id: string, run_ids: readonly string[], lease_ms: number): Promise<string[]> {
    checkLease(worker_id, lease_ms);
    checkBatch('run_ids', run_ids.length);
    if (run_ids.length === 0) return [];
    const result = await this.#pool().query<{ run_id: string }>(this.#sql.renew, [worker_id, lease_ms, [...run_ids]]);
    const held = new Set(result.rows.map((r) => r.run_id));
    return run_ids.filter((id) => held.has(id));
  }

  async releaseLease(worker_id: string, run_id: string): Promise<void> {
    await this.#pool().query(this.#sql.release, [worker_id, run_id]);
  }

  /** NOTIFY on the schema's channel; every store listening on it (this one included) hears `run_id`. */
  async notify(run_id: string): Promise<void> {
    const pool = this.#pool();
    await this.#state?.listener.ready;
    await pool.query(this.#sql.notify, [this.#channel, run_id]);
  }

  /** Adds a wake-up listener; the first one starts the dedicated LISTEN connection. */
  onNotify(listener: (run_id: string) => void): () => void {
    const stop = this.#hub.add(listener);
    void this.#state?.listener.start();
    return stop;
  }
}

function firstRow<T>(rows: readonly T[]): T {
  const row = rows[0];
  if (row === undefined) throw new RimthanError('internal', 'insert returned no row');
  return row;
}
