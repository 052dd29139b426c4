/**
 * A pass-through RunStore that tells the benchmark when a run reaches a status, by watching the records `commit`
 * returns. This avoids polling (whose sleep would be charged to Rimthan) and costs one Map lookup per commit.
 */
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
  ScheduleDeclaration,
  ScheduleQuery,
  ScheduleRecord,
  ScheduleUpdate,
} from '../../src/runs/index.js';

interface Waiter {
  readonly statuses: ReadonlySet<RunStatus>;
  readonly resolve: (record: RunRecord) => void;
}

export class ObservedStore implements RunStore {
  readonly #inner: RunStore;
  readonly #last = new Map<string, RunRecord>();
  readonly #waiters = new Map<string, Waiter>();
  /** Write calls so far (putInput, createRun, commit, claim, renew, release): each is one transaction without group commit. */
  writes = 0;

  constructor(inner: RunStore) {
    this.#inner = inner;
  }

  /** Resolves with the run's record once a commit left it in one of `statuses`. */
  waitForStatus(runId: string, statuses: ReadonlySet<RunStatus>): Promise<RunRecord> {
    const last = this.#last.get(runId);
    if (last !== undefined && statuses.has(last.status)) return Promise.resolve(last);
    return new Promise((resolve) => this.#waiters.set(runId, { statuses, resolve }));
  }

  #seen(record: RunRecord): RunRecord {
    const waiter = this.#waiters.get(record.run_id);
    if (waiter !== undefined && waiter.statuses.has(record.status)) {
      this.#waiters.delete(record.run_id);
      this.#last.delete(record.run_id);
      waiter.resolve(record);
    } else {
      this.#last.set(record.run_id, record);
    }
    return record;
  }

  async commit(commit: Commit): Promise<RunRecord> {
    this.writes++;
    return this.#seen(await this.#inner.commit(commit));
  }

  unseededRuns(created_before: string, limit: number): Promise<RunRecord[]> {
    return this.#inner.unseededRuns(created_before, limit);
  }

  async requestCancel(run_id: string, reason: string, updated_at: string): Promise<RunRecord | undefined> {
    this.writes++;
    const record = await this.#inner.requestCancel(run_id, reason, updated_at);
    return record === undefined ? undefined : this.#seen(record);
  }

  open(): Promise<void> {
    return this.#inner.open();
  }
  close(): Promise<void> {
    return this.#inner.close();
  }
  putInput(sha256: string, canonical: string): Promise<void> {
    this.writes++;
    return this.#inner.putInput(sha256, canonical);
  }
  getInput(sha256: string): Promise<string | undefined> {
    return this.#inner.getInput(sha256);
  }
  async createRun(record: NewRunRecord, seed?: Commit): Promise<RunRecord> {
    this.writes++;
    return this.#seen(await this.#inner.createRun(record, seed));
  }
  getRun(session_id: string, run_id: string): Promise<RunRecord | undefined> {
    return this.#inner.getRun(session_id, run_id);
  }
  getRunById(run_id: string): Promise<RunRecord | undefined> {
    return this.#inner.getRunById(run_id);
  }
  findByIdempotencyKey(session_id: string, key: string): Promise<RunRecord | undefined> {
    return this.#inner.findByIdempotencyKey(session_id, key);
  }
  listRuns(session_id: string, query: ListQuery): Promise<RunRecord[]> {
    return this.#inner.listRuns(session_id, query);
  }
  latestCheckpoint(run_id: string): Promise<Checkpoint | undefined> {
    return this.#inner.latestCheckpoint(run_id);
  }
  checkpointAt(run_id: string, revision: number): Promise<Checkpoint | undefined> {
    return this.#inner.checkpointAt(run_id, revision);
  }
  definitionsInUse(): Promise<DefinitionUse[]> {
    return this.#inner.definitionsInUse();
  }
  runsOfDefinition(name: string, version: string, query: ListQuery): Promise<RunRecord[]> {
    return this.#inner.runsOfDefinition(name, version, query);
  }
  listSessions(query: SessionQuery): Promise<SessionSummary[]> {
    return this.#inner.listSessions(query);
  }
  statusCounts(): Promise<Record<RunStatus, number>> {
    return this.#inner.statusCounts();
  }
  history(run_id: string, query: HistoryQuery): Promise<ActivityEntry[]> {
    return this.#inner.history(run_id, query);
  }
  claimRuns(worker_id: string, lease_ms: number, limit: number, exclude?: readonly string[]): Promise<RunRecord[]> {
    this.writes++;
    return this.#inner.claimRuns(worker_id, lease_ms, limit, exclude);
  }
  renewLeases(worker_id: string, run_ids: readonly string[], lease_ms: number): Promise<string[]> {
    this.writes++;
    return this.#inner.renewLeases(worker_id, run_ids, lease_ms);
  }
  releaseLease(worker_id: string, run_id: string): Promise<void> {
    this.writes++;
    return this.#inner.releaseLease(worker_id, run_id);
  }
  notify(run_id: string): Promise<void> {
    return this.#inner.notify(run_id);
  }
  onNotify(listener: (run_id: string) => void): () => void {
    return this.#inner.onNotify(listener);
  }
  parkRun(park: RunPark): Promise<ParkOutcome> {
    this.writes++;
    return this.#inner.parkRun(park);
  }
  sendEvent(event: RunEvent): Promise<SendEventOutcome> {
    this.writes++;
    return this.#inner.sendEvent(event);
  }
  eventAt(run_id: string, name: string, position: number): Promise<RunEvent | undefined> {
    return this.#inner.eventAt(run_id, name, position);
  }
  wakeParent(parent_run_id: string, child_run_id: string): Promise<void> {
    this.writes++;
    return this.#inner.wakeParent(parent_run_id, child_run_id);
  }
  childRuns(parent_run_id: string, query: ListQuery): Promise<RunRecord[]> {
    return this.#inner.childRuns(parent_run_id, query);
  }
  nextWakeAt(): Promise<number | undefined> {
    return this.#inner.nextWakeAt();
  }
  async createLimitedRun(record: NewRunRecord, seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    this.writes++;
    return this.#seen(await this.#inner.createLimitedRun(record, seed, slot));
  }
  async seedLimitedRun(seed: Commit, slot: ConcurrencySlot): Promise<RunRecord> {
    this.writes++;
    return this.#seen(await this.#inner.seedLimitedRun(seed, slot));
  }
  promoteAfter(run_id: string): Promise<string[]> {
    return this.#inner.promoteAfter(run_id);
  }
  promoteWaiting(limit: number): Promise<string[]> {
    return this.#inner.promoteWaiting(limit);
  }

  pruneRuns(query: PruneQuery): Promise<PruneResult> {
    this.writes++;
    return this.#inner.pruneRuns(query);
  }
  finishedDefinitions(): Promise<string[]> {
    return this.#inner.finishedDefinitions();
  }
  syncSchedules(name: string, declared: readonly ScheduleDeclaration[], at: string): Promise<ScheduleRecord[]> {
    return this.#inner.syncSchedules(name, declared, at);
  }
  getSchedule(definition_name: string, schedule_id: string): Promise<ScheduleRecord | undefined> {
    return this.#inner.getSchedule(definition_name, schedule_id);
  }
  listSchedules(query: ScheduleQuery): Promise<ScheduleRecord[]> {
    return this.#inner.listSchedules(query);
  }
  updateSchedule(update: ScheduleUpdate): Promise<ScheduleRecord | undefined> {
    return this.#inner.updateSchedule(update);
  }
}
