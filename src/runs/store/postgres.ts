/**
 * The shared run store: PostgreSQL through a `pg` Pool, for several workers on one database. Writes are group
 * committed (postgres-writer.ts): the commits queued while a batch is written go together into ONE statement, which
 * locks and checks each run on its own (compare-and-swap on record_revision, status machine, checkpoint
 * compare-and-append, lease) and coalesces a run's consecutive commits; every synced write is durable
 * (synchronous_commit on) before it is acknowledged. Leases use FOR UPDATE SKIP LOCKED under READ COMMITTED; wake-ups
 * travel as NOTIFY on one channel per schema and arrive through one dedicated LISTEN connection.
 */
import type pg from 'pg';
import type { PoolConfig } from 'pg';
import { RimthanError } from '../../core/errors.js';
import { StoreArgumentError } from './argument-error.js';
import { NotifyHub } from '../../core/notify-hub.js';
import { PostgresListener, pgDriver } from '../../postgres/index.js';
import { planCommit, prepareCommit, prepareSeed } from './commit-plan.js';
import { postgresQueries, type PostgresQueries } from './postgres-queries.js';
import { migratePostgres, quoteSchema } from './postgres-schema.js';
import { PostgresWaits } from './postgres-waits.js';
import { PostgresConcurrency } from './postgres-concurrency.js';
import { PostgresRetention } from './postgres-retention.js';
import { PostgresSchedules } from './postgres-schedules.js';
import type { ScheduleDeclaration, ScheduleQuery, ScheduleRecord, ScheduleUpdate } from './types.js';
import { PostgresWriter } from './postgres-writer.js';
import { rowToSession, type SessionRow } from './sessions.js';
import {
  rowToActivity,
  rowToCheckpoint,
  rowToRun,
  statusCountsOf,
  type ActivityRow,
  type CheckpointRow,
  type RunRow,
} from './rows.js';
import type {
  ActivityEntry,
  Checkpoint,
  Commit,
  ConcurrencySlot,
  DefinitionUse,
  HistoryQuery,
  ListQuery,
  NewRunRecord,
  ParkOutcome,
  PruneQuery,
  PruneResult,
  RunEvent,
  RunPark,
  RunRecord,
  RunStatus,
  RunStore,
  SendEventOutcome,
  SessionQuery,
  SessionSummary,
  StoreObserver,
} from './types.js';
import {
  checkBatch,
  checkCancelRequest,
  checkUnseededQuery,
  checkCommit,
  checkDefinitionKey,
  checkExclude,
  checkHistoryQuery,
  checkInput,
  checkLease,
  checkListQuery,
  checkNewRun,
  checkRevision,
  checkRunId,
  checkSessionQuery,
  STORE_LIMITS,
} from './validate.js';
import { observe } from './observe.js';

export interface PostgresRunStoreOptions {
  /** `postgres://...`; merged with `pool` when both are given. */
  readonly connectionString?: string;
  /** Any pg Pool settings (host, user, max, ssl, ...). */
  readonly pool?: PoolConfig;
  /** Schema holding the tables (created when missing); default `public`. Lowercase identifier, ≤48 chars. */
  readonly schema?: string;
  /** Metrics hooks (commit batch latency, lease takeovers). */
  readonly observer?: StoreObserver;
}

/** Cursor ordinal meaning "after every entry of the revision". */
const AFTER_WHOLE_REVISION = STORE_LIMITS.maxCounter + 1;

interface OpenState {
  readonly pool: pg.Pool;
  readonly listener: PostgresListener;
  readonly writer: PostgresWriter;
}

interface ClaimRow extends RunRow {
  previous_owner: string | null;
}

export class PostgresRunStore implements RunStore {
  readonly #config: PoolConfig;
  readonly #schema: string;
  readonly #sql: PostgresQueries;
  readonly #channel: string;
  readonly #hub = new NotifyHub();
  readonly #observer: StoreObserver | undefined;
  readonly #waits: PostgresWaits;
  readonly #slots: PostgresConcurrency;
  readonly #retention: PostgresRetention;
  readonly #schedules: PostgresSchedules;
  #state: OpenState | undefined;

  /** Validates the options; nothing connects before `open()`. */
  constructor(options: PostgresRunStoreOptions) {
    this.#schema = options.schema ?? 'public';
    this.#sql = postgresQueries(quoteSchema(this.#schema));
    this.#channel = this.#schema === 'public' ? 'rimthan_runs' : `rimthan_runs_${this.#schema}`;
    const connection = options.connectionString === undefined ? {} : { connectionString: options.connectionString };
    this.#config = { ...options.pool, ...connection };
    this.#observer = options.observer;
    this.#waits = new PostgresWaits(() => this.#pool(), quoteSchema(this.#schema));
    this.#slots = new PostgresConcurrency(
      () => this.#pool(),
      quoteSchema(this.#schema),
      (sha256) => this.#open().writer.stagedInput(sha256),
    );
    this.#retention = new PostgresRetention(() => this.#pool(), quoteSchema(this.#schema), this.#observer);
    this.#schedules = new PostgresSchedules(() => this.#pool(), quoteSchema(this.#schema));
  }

  /** Connects the pool and migrates the schema (serialised across processes by an advisory lock). Idempotent. */
  async open(): Promise<void> {
    if (this.#state !== undefined) return;
    const pool = new (pgDriver().Pool)(this.#config);
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
    this.#state = { pool, listener, writer: new PostgresWriter(pool, this.#sql, this.#channel, this.#observer) };
    if (this.#hub.size > 0) void listener.start();
  }

  /** Writes what is queued, stops listening and closes every connection. Idempotent. */
  async close(): Promise<void> {
    const state = this.#state;
    if (state === undefined) return;
    this.#state = undefined;
    this.#hub.clear();
    await state.writer.drain();
    await state.listener.stop();
    await state.pool.end();
  }

  #open(): OpenState {
    if (this.#state === undefined) throw new RimthanError('unavailable', 'run store is not open');
    return this.#state;
  }

  #pool(): pg.Pool {
    return this.#open().pool;
  }

  /**
   * Staged, not written on the caller's path: the next createRun batch writes it in its own statement, so an input is on
   * disk no later than the first run that refers to it (a batch of inputs alone commits without an fsync of its own).
   * This store answers getInput for it at once.
   */
  async putInput(sha256: string, canonical: string): Promise<void> {
    checkInput(sha256, canonical);
    await this.#open().writer.putInput(sha256, canonical);
  }

  async getInput(sha256: string): Promise<string | undefined> {
    const staged = this.#open().writer.stagedInput(sha256);
    if (staged !== undefined) return staged;
    const result = await this.#pool().query<{ canonical: string }>(this.#sql.getInput, [sha256]);
    return result.rows[0]?.canonical;
  }

  /**
   * Group-committed: concurrent starts share one statement (a duplicate fails alone); with `seed`, the record is
   * written as its seed leaves it, with the seed's checkpoint and activities, in that same statement (see
   * RunStore.createRun). The seed is decided against the fresh record here, before it is queued: a refused seed writes
   * nothing.
   */
  async createRun(record: NewRunRecord, seed?: Commit): Promise<RunRecord> {
    checkNewRun(record);
    const prepared = seed === undefined ? undefined : prepareSeed(record, seed);
    const seeded =
      prepared === undefined
        ? undefined
        : { record: planCommit({ ...record, created_seq: 0, record_revision: 0 }, prepared.commit), seed: prepared };
    const created = await this.#open().writer.creates.submit(seeded === undefined ? { record } : { record, seeded });
    if (created === undefined) throw new RimthanError('internal', 'a batched start lost its record');
    return created;
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

  /**
   * See RunStore.commit. Group-committed: the commits queued while the previous batch is written share one statement
   * and one WAL flush; one run's commits apply in call order.
   */
  async commit(commit: Commit): Promise<RunRecord> {
    checkCommit(commit);
    const prepared = prepareCommit(commit);
    return this.#open().writer.commits.submit(prepared);
  }

  /** See RunStore.requestCancel: one statement (the update when there is something to request, else the row). */
  async requestCancel(run_id: string, reason: string, updated_at: string): Promise<RunRecord | undefined> {
    checkCancelRequest(run_id, reason, updated_at);
    const row = (await this.#pool().query<RunRow>(this.#sql.requestCancel, [run_id, reason, updated_at])).rows[0];
    return row === undefined ? undefined : rowToRun(row);
  }

  async latestCheckpoint(run_id: string): Promise<Checkpoint | undefined> {
    const row = (await this.#pool().query<CheckpointRow>(this.#sql.latestCheckpoint, [run_id])).rows[0];
    return row === undefined ? undefined : rowToCheckpoint(row);
  }

  async checkpointAt(run_id: string, revision: number): Promise<Checkpoint | undefined> {
    checkRevision(run_id, revision);
    const row = (await this.#pool().query<CheckpointRow>(this.#sql.checkpointAt, [run_id, revision])).rows[0];
    return row === undefined ? undefined : rowToCheckpoint(row);
  }

  async definitionsInUse(): Promise<DefinitionUse[]> {
    const result = await this.#pool().query<DefinitionUse>(this.#sql.definitionsInUse);
    return result.rows.map((r) => ({ ...r, runs: Number(r.runs) }));
  }

  async runsOfDefinition(name: string, version: string, query: ListQuery): Promise<RunRecord[]> {
    checkDefinitionKey(name, version);
    checkListQuery(query);
    const values = [name, version, query.after_seq ?? 0, query.limit];
    return (await this.#pool().query<RunRow>(this.#sql.runsOfDefinition, values)).rows.map(rowToRun);
  }

  async listSessions(query: SessionQuery): Promise<SessionSummary[]> {
    checkSessionQuery(query);
    const after = query.after_session_id ?? '';
    const result =
      query.session_id === undefined
        ? await this.#pool().query<SessionRow>(this.#sql.sessionsPage, [after, query.limit])
        : await this.#pool().query<SessionRow>(this.#sql.sessionOne, [query.session_id, after]);
    return result.rows.map(rowToSession);
  }

  async statusCounts(): Promise<Record<RunStatus, number>> {
    return statusCountsOf((await this.#pool().query<{ status: string; n: number }>(this.#sql.statusCounts)).rows);
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
      if (hit === undefined) throw new StoreArgumentError('after_event_id is not an event of after_revision');
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
    const result = await this.#pool().query<ClaimRow>(this.#sql.claim, [
      worker_id,
      lease_ms,
      limit,
      [...exclude],
      Date.now(),
    ]);
    const takeovers = result.rows.filter((r) => r.previous_owner !== null && r.previous_owner !== worker_id).length;
    if (result.rows.length > 0) observe(() => this.#observer?.claimed?.({ runs: result.rows.length, takeovers }));
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

  parkRun(park: RunPark): Promise<ParkOutcome> {
    return this.#waits.parkRun(park);
  }

  sendEvent(event: RunEvent): Promise<SendEventOutcome> {
    return this.#waits.sendEvent(event);
  }

  eventAt(run_id: string, name: string, position: number): Promise<RunEvent | undefined> {
    return this.#waits.eventAt(run_id, name, position);
  }

  wakeParent(parent_run_id: string, child_run_id: string): Promise<void> {
    return this.#waits.wakeParent(parent_run_id, child_run_id);
  }

  childRuns(parent_run_id: string, query: ListQuery): Promise<RunRecord[]> {
    return this.#waits.childRuns(parent_run_id, query);
  }

  nextWakeAt(): Promise<number | undefined> {
    return this.#waits.nextWakeAt();
  }
  syncSchedules(
    definition_name: string,
    declared: readonly ScheduleDeclaration[],
    updated_at: string,
  ): Promise<ScheduleRecord[]> {
    return this.#schedules.syncSchedules(definition_name, declared, updated_at);
  }

  getSchedule(definition_name: string, schedule_id: string): Promise<ScheduleRecord | undefined> {
    return this.#schedules.getSchedule(definition_name, schedule_id);
  }

  listSchedules(query: ScheduleQuery): Promise<ScheduleRecord[]> {
    return this.#schedules.listSchedules(query);
  }

  updateSchedule(update: ScheduleUpdate): Promise<ScheduleRecord | undefined> {
    return this.#schedules.updateSchedule(update);
  }

  async createLimitedRun(record: NewRunRecord, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    checkNewRun(record);
    return this.#slots.createLimitedRun(record, seed, slot);
  }

  seedLimitedRun(seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    return this.#slots.seedLimitedRun(seed, slot);
  }

  promoteAfter(run_id: string): Promise<string[]> {
    return this.#slots.promoteAfter(run_id);
  }

  promoteWaiting(limit: number): Promise<string[]> {
    return this.#slots.promoteWaiting(limit);
  }

  pruneRuns(query: PruneQuery): Promise<PruneResult> {
    return this.#retention.pruneRuns(query);
  }

  finishedDefinitions(): Promise<string[]> {
    return this.#retention.finishedDefinitions();
  }

  /**
   * NOTIFY on the schema's channel; every store listening on it (this one included) hears `run_id`. Concurrent calls
   * share one unsynced statement (see NOTIFY_BATCH_SQL): a wake-up follows the durable write it announces.
   */
  async notify(run_id: string): Promise<void> {
    checkRunId(run_id);
    const state = this.#open();
    await state.listener.ready;
    await state.writer.notices.submit(run_id);
  }

  /** Adds a wake-up listener; the first one starts the dedicated LISTEN connection. */
  onNotify(listener: (run_id: string) => void): () => void {
    const stop = this.#hub.add(listener);
    void this.#state?.listener.start();
    return stop;
  }
}
