/**
 * The embedded run store: one SQLite file (WAL, synchronous=FULL) driven by better-sqlite3. Writes go through a group
 * commit (one transaction per event-loop turn); reads are direct. SQLite serves one process: leases are still recorded
 * in the file (another process opening it sees them), wake-ups stay in-process.
 */
import Database from 'better-sqlite3';
import { RimthanError } from '../../core/errors.js';
import { StoreArgumentError } from './argument-error.js';
import { GroupCommitWriter } from './group-commit.js';
import { NotifyHub } from '../../core/notify-hub.js';
import { RecordCache } from './record-cache.js';
import { cancelRequestCommit, planCommit, prepareCommit, prepareSeed, type PreparedCommit } from './commit-plan.js';
import {
  activityValues,
  encodeJsonColumns,
  isUniqueViolation,
  rowToActivity,
  rowToCheckpoint,
  rowToRun,
  statusCountsOf,
  type ActivityRow,
  type CheckpointRow,
  type RunRow,
} from './rows.js';
import { rowToSession, type SessionRow } from './sessions.js';
import { migrateSqlite } from './sqlite-schema.js';
import { prepareStatements, type SqliteStatements } from './sqlite-statements.js';
import { SqliteWaits } from './sqlite-waits.js';
import { SqliteConcurrency } from './sqlite-concurrency.js';
import { SqliteRetention } from './sqlite-retention.js';
import { LruCache } from '../../core/lru.js';
import { SqliteSchedules } from './sqlite-schedules.js';
import type { ScheduleDeclaration, ScheduleQuery, ScheduleRecord, ScheduleUpdate } from './types.js';
import {
  StoreConflictError,
  type ActivityEntry,
  type Checkpoint,
  type Commit,
  type ConcurrencySlot,
  type DefinitionUse,
  type HistoryQuery,
  type ListQuery,
  type NewRunRecord,
  type ParkOutcome,
  type PruneQuery,
  type PruneResult,
  type RunEvent,
  type RunPark,
  type RunRecord,
  type RunStatus,
  type RunStore,
  type SendEventOutcome,
  type SessionQuery,
  type SessionSummary,
  type StoreObserver,
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
  checkSessionQuery,
  STORE_LIMITS,
} from './validate.js';
import { settle, settleAsync } from './settle.js';

export interface SqliteRunStoreOptions {
  /**
   * true (default): one transaction per event-loop turn for all queued writes, and writes that need no fsync of their
   * own (inputs, lease renewals and releases) ride on the next synced one; false: one synced commit per write.
   */
  readonly groupCommit?: boolean;
  /** How long a write waits for another process's lock before failing (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /** Metrics hooks (commit batch latency, lease takeovers). */
  readonly observer?: StoreObserver;
}

interface OpenState {
  readonly db: Database.Database;
  readonly sql: SqliteStatements;
  readonly writer: GroupCommitWriter;
  readonly cache: RecordCache;
  readonly waits: SqliteWaits;
  readonly slots: SqliteConcurrency;
  readonly retention: SqliteRetention;
  readonly schedules: SqliteSchedules;
}

/** Cursor ordinal meaning "after every entry of the revision". */
const AFTER_WHOLE_REVISION = STORE_LIMITS.maxCounter + 1;

export class SqliteRunStore implements RunStore {
  readonly #path: string;
  readonly #options: SqliteRunStoreOptions;
  readonly #hub = new NotifyHub();
  /** Inputs put and not yet referred to by a created run: createRun writes its input again (see putInput). */
  readonly #putInputs = new LruCache<string, string>(256);
  #state: OpenState | undefined;

  /** `path` is a database file (created when missing); `:memory:` works for throwaway use. */
  constructor(path: string, options: SqliteRunStoreOptions = {}) {
    this.#path = path;
    this.#options = options;
  }

  /** Opens the file, sets WAL + synchronous=FULL, migrates and prepares statements. Idempotent. */
  open(): Promise<void> {
    return settle(() => {
      if (this.#state !== undefined) return;
      const db = new Database(this.#path, { timeout: this.#options.busyTimeoutMs ?? 5000 });
      try {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = FULL');
        db.pragma('foreign_keys = ON');
        migrateSqlite(db);
        const sql = prepareStatements(db);
        const totalChanges = db.prepare('SELECT total_changes()').pluck();
        const cache = new RecordCache();
        const writer = new GroupCommitWriter(db, this.#options.groupCommit ?? true, {
          changes: () => Number(totalChanges.get()),
          onRollback: () => cache.clear(),
          setSync: (sync) => db.pragma(`synchronous = ${sync ? 'FULL' : 'NORMAL'}`),
          onBatch: (writes, durationMs, ok) => this.#options.observer?.commitBatch?.({ writes, durationMs, ok }),
        });
        const slots = new SqliteConcurrency(db, writer, {
          insertRun: (record) => this.#insertRun(sql, cache, record),
          apply: (prepared) => applyCommit(sql, cache, prepared),
        });
        const retention = new SqliteRetention(db, writer, cache, this.#options.observer);
        const schedules = new SqliteSchedules(db, writer);
        this.#state = { db, sql, writer, cache, waits: new SqliteWaits(db, writer), slots, retention, schedules };
      } catch (error) {
        db.close();
        throw error;
      }
    });
  }

  /** Commits queued writes, then closes the file. Idempotent. */
  close(): Promise<void> {
    return settle(() => {
      const state = this.#state;
      if (state === undefined) return;
      state.writer.flush();
      this.#state = undefined;
      this.#hub.clear();
      state.db.close();
    });
  }

  #open(): OpenState {
    if (this.#state === undefined) throw new RimthanError('unavailable', 'run store is not open');
    return this.#state;
  }

  /**
   * Stores the input without an fsync of its own: it is durable no later than this store's next synced write (WAL
   * commits reach the disk in order), and a run can only reference it through a later, synced createRun. An fsync
   * here would protect an input that nothing refers to yet. The text is also kept until createRun, which writes it
   * again (a no-op when it is there) in the run's own transaction: a prune that deleted the input in between, as
   * no run referred to it yet, cannot leave the new run without its input.
   */
  async putInput(sha256: string, canonical: string): Promise<void> {
    checkInput(sha256, canonical);
    const { sql, writer } = this.#open();
    this.#putInputs.set(sha256, canonical);
    await writer.write(() => sql.putInput.run(sha256, canonical), { sync: false });
  }

  /**
   * Inserts a run inside a write batch, first writing its input again when this store put it and no created run has
   * referred to it yet: a prune running between `putInput` and here may have deleted it as unreferenced.
   */
  #insertRun(sql: SqliteStatements, cache: RecordCache, record: NewRunRecord): RunRecord {
    const input = this.#putInputs.peek(record.input_sha256);
    if (input !== undefined) {
      sql.putInput.run(record.input_sha256, input);
      this.#putInputs.delete(record.input_sha256);
    }
    return insertRun(sql, cache, record);
  }

  getInput(sha256: string): Promise<string | undefined> {
    return settle(() => this.#open().sql.getInput.get(sha256) as string | undefined);
  }

  async createRun(record: NewRunRecord, seed?: Commit): Promise<RunRecord> {
    checkNewRun(record);
    const prepared = seed === undefined ? undefined : prepareSeed(record, seed);
    const { sql, writer, cache } = this.#open();
    return writer.write(() => {
      const created = this.#insertRun(sql, cache, record);
      // In the same savepoint: a refused seed rolls the record back too.
      return prepared === undefined ? created : applyCommit(sql, cache, prepared);
    });
  }

  getRun(session_id: string, run_id: string): Promise<RunRecord | undefined> {
    return settle(() => {
      const row = this.#open().sql.runBySession.get(session_id, run_id) as RunRow | undefined;
      return row === undefined ? undefined : rowToRun(row);
    });
  }

  getRunById(run_id: string): Promise<RunRecord | undefined> {
    return settle(() => {
      const row = this.#open().sql.runById.get(run_id) as RunRow | undefined;
      return row === undefined ? undefined : rowToRun(row);
    });
  }

  findByIdempotencyKey(session_id: string, key: string): Promise<RunRecord | undefined> {
    return settle(() => {
      const row = this.#open().sql.runByKey.get(session_id, key) as RunRow | undefined;
      return row === undefined ? undefined : rowToRun(row);
    });
  }

  listRuns(session_id: string, query: ListQuery): Promise<RunRecord[]> {
    return settle(() => {
      checkListQuery(query);
      const rows = this.#open().sql.listRuns.all(session_id, query.after_seq ?? 0, query.limit) as RunRow[];
      return rows.map(rowToRun);
    });
  }

  unseededRuns(created_before: string, limit: number): Promise<RunRecord[]> {
    return settle(() => {
      checkUnseededQuery(created_before, limit);
      return (this.#open().sql.unseeded.all(created_before, limit) as RunRow[]).map(rowToRun);
    });
  }

  async commit(commit: Commit): Promise<RunRecord> {
    checkCommit(commit);
    const prepared = prepareCommit(commit);
    const { sql, writer, cache } = this.#open();
    return writer.write(() => applyCommit(sql, cache, prepared));
  }

  /** See RunStore.requestCancel: read and write in one turn of the single writer, so no other write can interleave. */
  async requestCancel(run_id: string, reason: string, updated_at: string): Promise<RunRecord | undefined> {
    checkCancelRequest(run_id, reason, updated_at);
    const { sql, writer, cache } = this.#open();
    return writer.write(() => {
      const row = sql.runById.get(run_id) as RunRow | undefined;
      if (row === undefined) return undefined;
      const current = rowToRun(row);
      const request = cancelRequestCommit(current, reason, updated_at);
      if (request === undefined) return current;
      // A parked run wakes into its cancellation: a claim takes it at once.
      sql.clearWait.run(run_id);
      return applyCommit(sql, cache, prepareCommit(request));
    });
  }

  latestCheckpoint(run_id: string): Promise<Checkpoint | undefined> {
    return settle(() => {
      const row = this.#open().sql.latestCheckpoint.get(run_id) as CheckpointRow | undefined;
      return row === undefined ? undefined : rowToCheckpoint(row);
    });
  }

  checkpointAt(run_id: string, revision: number): Promise<Checkpoint | undefined> {
    return settle(() => {
      checkRevision(run_id, revision);
      const row = this.#open().sql.checkpointAt.get(run_id, revision) as CheckpointRow | undefined;
      return row === undefined ? undefined : rowToCheckpoint(row);
    });
  }

  definitionsInUse(): Promise<DefinitionUse[]> {
    return settle(() => {
      const { sql } = this.#open();
      const rows = sql.definitionsInUse.all() as {
        definition_name: string;
        definition_version: string;
        runs: number;
      }[];
      return rows.map((r) => ({
        definition_name: r.definition_name,
        definition_version: r.definition_version,
        runs: Number(r.runs),
        run_ids: sql.definitionRunIds.all(r.definition_name, r.definition_version) as string[],
      }));
    });
  }

  runsOfDefinition(name: string, version: string, query: ListQuery): Promise<RunRecord[]> {
    return settle(() => {
      checkDefinitionKey(name, version);
      checkListQuery(query);
      const rows = this.#open().sql.runsOfDefinition.all(name, version, query.after_seq ?? 0, query.limit) as RunRow[];
      return rows.map(rowToRun);
    });
  }

  listSessions(query: SessionQuery): Promise<SessionSummary[]> {
    return settle(() => {
      checkSessionQuery(query);
      const { sql } = this.#open();
      const after = query.after_session_id ?? '';
      const rows = (
        query.session_id === undefined
          ? sql.sessionsPage.all(after, query.limit)
          : sql.sessionOne.all(query.session_id, after)
      ) as SessionRow[];
      return rows.map(rowToSession);
    });
  }

  statusCounts(): Promise<Record<RunStatus, number>> {
    return settle(() => statusCountsOf(this.#open().sql.statusCounts.all() as { status: string; n: number }[]));
  }

  history(run_id: string, query: HistoryQuery): Promise<ActivityEntry[]> {
    return settle(() => {
      checkHistoryQuery(query);
      const { sql } = this.#open();
      let rows: ActivityRow[];
      if (query.after_revision === undefined) {
        rows = sql.historyFirst.all(run_id, query.limit) as ActivityRow[];
      } else {
        let ordinal = AFTER_WHOLE_REVISION;
        if (query.after_event_id !== undefined) {
          const found = sql.eventOrdinal.get(run_id, query.after_revision, query.after_event_id) as number | undefined;
          if (found === undefined) {
            throw new StoreArgumentError('after_event_id is not an event of after_revision');
          }
          ordinal = found;
        }
        rows = sql.historyAfter.all(run_id, query.after_revision, ordinal, query.limit) as ActivityRow[];
      }
      return rows.map(rowToActivity);
    });
  }

  /**
   * See RunStore.claimRuns. A read first: when nothing is claimable no write transaction is opened at all. A claim
   * that leases runs is synced before it resolves (its revision bump is the epoch of the executions it starts).
   */
  async claimRuns(
    worker_id: string,
    lease_ms: number,
    limit: number,
    exclude: readonly string[] = [],
  ): Promise<RunRecord[]> {
    checkLease(worker_id, lease_ms);
    checkBatch('limit', limit);
    checkExclude(exclude);
    const { sql, writer } = this.#open();
    const skip = JSON.stringify(exclude);
    if (limit === 0 || (sql.claimable.all({ now: Date.now(), skip, limit: 1 }) as string[]).length === 0) return [];
    const claimed = await writer.write(() => {
      const now = Date.now();
      const ids = sql.claimable.all({ now, skip, limit }) as string[];
      let takeovers = 0;
      const records = ids.map((id) => {
        const previous = sql.leaseOwner.get(id) as string | null;
        if (previous !== null && previous !== worker_id) takeovers++;
        sql.setLease.run(worker_id, now + lease_ms, id);
        return rowToRun(sql.runById.get(id) as RunRow);
      });
      return { records, takeovers };
    });
    if (claimed.records.length > 0) {
      try {
        this.#options.observer?.claimed?.({ runs: claimed.records.length, takeovers: claimed.takeovers });
      } catch {
        // An observer's fault is its own.
      }
    }
    return claimed.records;
  }

  /** Extends leases without an fsync: a renewal lost in a crash only lets the lease run out sooner (the crashed owner is gone). */
  async renewLeases(worker_id: string, run_ids: readonly string[], lease_ms: number): Promise<string[]> {
    checkLease(worker_id, lease_ms);
    checkBatch('run_ids', run_ids.length);
    const { sql, writer } = this.#open();
    return writer.write(
      () => {
        const expires = Date.now() + lease_ms;
        return run_ids.filter((id) => sql.renewLease.run(expires, id, worker_id).changes > 0);
      },
      { sync: false },
    );
  }

  /** Releases a lease without an fsync: a release lost in a crash only means the lease runs out by itself. */
  async releaseLease(worker_id: string, run_id: string): Promise<void> {
    const { sql, writer } = this.#open();
    await writer.write(() => sql.releaseLease.run(run_id, worker_id), { sync: false });
  }

  /** Synced write transactions committed so far that changed rows (one WAL fsync each); for benchmarks and diagnosis. */
  get transactions(): number {
    return this.#state?.writer.transactions ?? 0;
  }

  parkRun(park: RunPark): Promise<ParkOutcome> {
    return settleAsync(() => this.#open().waits.parkRun(park));
  }

  sendEvent(event: RunEvent): Promise<SendEventOutcome> {
    return settleAsync(() => this.#open().waits.sendEvent(event));
  }

  eventAt(run_id: string, name: string, position: number): Promise<RunEvent | undefined> {
    return settleAsync(() => this.#open().waits.eventAt(run_id, name, position));
  }

  wakeParent(parent_run_id: string, child_run_id: string): Promise<void> {
    return settleAsync(() => this.#open().waits.wakeParent(parent_run_id, child_run_id));
  }

  childRuns(parent_run_id: string, query: ListQuery): Promise<RunRecord[]> {
    return settleAsync(() => this.#open().waits.childRuns(parent_run_id, query));
  }

  nextWakeAt(): Promise<number | undefined> {
    return settleAsync(() => this.#open().waits.nextWakeAt());
  }
  syncSchedules(
    definition_name: string,
    declared: readonly ScheduleDeclaration[],
    updated_at: string,
  ): Promise<ScheduleRecord[]> {
    return settleAsync(() => this.#open().schedules.syncSchedules(definition_name, declared, updated_at));
  }

  getSchedule(definition_name: string, schedule_id: string): Promise<ScheduleRecord | undefined> {
    return settleAsync(() => this.#open().schedules.getSchedule(definition_name, schedule_id));
  }

  listSchedules(query: ScheduleQuery): Promise<ScheduleRecord[]> {
    return settleAsync(() => this.#open().schedules.listSchedules(query));
  }

  updateSchedule(update: ScheduleUpdate): Promise<ScheduleRecord | undefined> {
    return settleAsync(() => this.#open().schedules.updateSchedule(update));
  }

  createLimitedRun(record: NewRunRecord, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    return settleAsync(() => {
      checkNewRun(record);
      return this.#open().slots.createLimitedRun(record, seed, slot);
    });
  }

  seedLimitedRun(seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    return settleAsync(() => this.#open().slots.seedLimitedRun(seed, slot));
  }

  promoteAfter(run_id: string): Promise<string[]> {
    return settleAsync(() => this.#open().slots.promoteAfter(run_id));
  }

  promoteWaiting(limit: number): Promise<string[]> {
    return settleAsync(() => this.#open().slots.promoteWaiting(limit));
  }

  pruneRuns(query: PruneQuery): Promise<PruneResult> {
    return settleAsync(() => this.#open().retention.pruneRuns(query));
  }

  finishedDefinitions(): Promise<string[]> {
    return settleAsync(() => this.#open().retention.finishedDefinitions());
  }

  /** In-process wake-up: every listener of this store object hears it on a later turn. */
  notify(run_id: string): Promise<void> {
    return settle(() => {
      this.#open();
      this.#hub.emit(run_id);
    });
  }

  onNotify(listener: (run_id: string) => void): () => void {
    return this.#hub.add(listener);
  }
}

/** The record as stored: from the cache when it holds the expected revision (see RecordCache), else read. */
function currentRecord(sql: SqliteStatements, cache: RecordCache, commit: Commit): RunRecord {
  const cached = cache.get(commit.run_id, commit.expected_record_revision);
  if (cached !== undefined) return cached;
  const row = sql.runById.get(commit.run_id) as RunRow | undefined;
  if (row === undefined) throw new RimthanError('not_found', 'run not found');
  return rowToRun(row);
}

/** Inserts a new, unseeded record inside the batch transaction; a duplicate id or idempotency key is a conflict. */
function insertRun(sql: SqliteStatements, cache: RecordCache, record: NewRunRecord): RunRecord {
  try {
    sql.insertRun.run({
      run_id: record.run_id,
      session_id: record.session_id,
      definition_name: record.definition_name,
      definition_version: record.definition_version,
      parent_run_id: record.parent_run_id,
      input_sha256: record.input_sha256,
      idempotency_key: record.idempotency_key,
      status: record.status,
      status_summary: record.status_summary,
      cancel_requested: record.cancel_requested ? 1 : 0,
      ...encodeJsonColumns(record),
      created_at: record.created_at,
      updated_at: record.updated_at,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new StoreConflictError('run id or idempotency key already exists');
    throw error;
  }
  return cache.set(rowToRun(sql.runById.get(record.run_id) as RunRow));
}

/**
 * True when a commit only advances a running run (a vertex step): it stays `running` on the same flow version with
 * no cancel request and no interrupt, so `advanceRun` may write it without the columns status-partial indexes read.
 */
function isAdvance(current: RunRecord, next: RunRecord): boolean {
  return (
    current.status === 'running' &&
    next.status === 'running' &&
    current.definition_version === next.definition_version &&
    current.cancel_requested === next.cancel_requested &&
    current.interrupt === null &&
    next.interrupt === null
  );
}

/** Executes one commit inside the batch transaction (its own savepoint). */
function applyCommit(sql: SqliteStatements, cache: RecordCache, prepared: PreparedCommit): RunRecord {
  const { commit, checkpointState } = prepared;
  const current = currentRecord(sql, cache, commit);
  const next = planCommit(current, commit);
  try {
    if (commit.checkpoint !== undefined && checkpointState !== undefined) {
      sql.insertCheckpoint.run(
        commit.run_id,
        commit.checkpoint.revision,
        checkpointState,
        commit.checkpoint.created_at,
      );
    }
    let inserted = 0;
    for (const entry of commit.activities ?? []) {
      inserted += sql.insertActivity.run(...activityValues(commit.run_id, entry)).changes;
    }
    const final: RunRecord = { ...next, activity_cursor: next.activity_cursor + inserted };
    const json = encodeJsonColumns(final);
    const changed = {
      run_id: final.run_id,
      status_summary: final.status_summary,
      checkpoint_revision: final.checkpoint_revision,
      activity_cursor: final.activity_cursor,
      artifacts: json.artifacts,
      updated_at: final.updated_at,
      record_revision: final.record_revision,
      expected_record_revision: commit.expected_record_revision,
    };
    const result = isAdvance(current, final)
      ? sql.advanceRun.run(changed)
      : sql.updateRun.run({
          ...changed,
          definition_version: final.definition_version,
          status: final.status,
          cancel_requested: final.cancel_requested ? 1 : 0,
          interrupt: json.interrupt,
        });
    if (result.changes !== 1) throw new StoreConflictError('run record changed since it was read');
    if (commit.lease !== undefined) {
      const now = Date.now();
      const lease = {
        run_id: final.run_id,
        worker_id: commit.lease.worker_id,
        expires: now + commit.lease.lease_ms,
        now,
      };
      if (sql.takeLease.run(lease).changes !== 1) throw new StoreConflictError('another worker holds the run lease');
    }
    return cache.set(final);
  } catch (error) {
    if (isUniqueViolation(error)) throw new StoreConflictError('checkpoint or activity position already taken');
    throw error;
  }
}
