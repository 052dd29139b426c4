/**
 * The supervisor: a bounded pool of run executions fed by store leases. A run started here while a slot is free is
 * executed here at once (its seed commit took the lease); otherwise it claims runs that need work (queued seeds,
 * resumed runs, runs whose owner died and whose lease expired), renews its leases while it executes them, listens for
 * wake-ups, sets aside runs whose flow version its catalog lacks, and on stop lets vertices in flight finish (or aborts
 * them after a grace period) and releases its leases. An observing supervisor (`observe()`, the console's) accepts
 * starts, resumes and cancels and hands every run to the workers, but never claims, executes or sweeps anything.
 */
import { systemClock, type Clock } from '../../core/clock.js';
import { RimthanError } from '../../core/errors.js';
import { Halt, HaltReason, sleep } from '../executor/abort.js';
import {
  executeRun,
  type ErrorContext,
  type ExecutionEnd,
  type ExecutionStart,
  type ExecutorDeps,
} from '../executor/run-execution.js';
import type { FlowCatalog } from '../flow/catalog.js';
import {
  RunStatus,
  TERMINAL_STATUSES,
  type RunConcurrency,
  type RunLedger,
  type RunQueue,
  type RunRecord,
  type RunWaits,
} from '../store/types.js';
import { promoteAfterEnd, sweepSlots } from './concurrency.js';
import { wakeParentOf } from '../executor/child-runs.js';
import { childStarter } from './child-start.js';
import { WakeTimer } from './wake-timer.js';
import { keepsSchedules, Scheduler } from './scheduler.js';
import { checkDeployment, type DeploymentCheck, type RemovedVersions } from '../operator/deploy-check.js';
import { failAbandonedStarts } from './abandoned-starts.js';
import { DeferredRuns } from './deferred-runs.js';
import { checkRetentionOptions, checkSupervisorOptions, type CheckedRetention } from './options.js';
import { hasRetention, sweepRetention } from './retention-sweep.js';
import { checkSessionId, SupervisorSessionController } from './session-controller.js';
import type { EngineHandle, LocalSlot, SessionController, SupervisorOptions } from './types.js';

type State = 'idle' | 'observing' | 'running' | 'stopping' | 'stopped';

interface LocalExecution {
  readonly halt: AbortController;
  readonly drain: AbortController;
  done: Promise<ExecutionEnd | 'error'>;
}

/** How long a worker waits before looking again at a parked run that was due but not claimed. */
const OVERDUE_RECHECK_MS = 1000;

/** Execution ends after which the run's lease is already gone: the commit that left `running` cleared it. */
const LEASE_CLEARED: ReadonlySet<ExecutionEnd> = new Set<ExecutionEnd>([
  'parked',
  RunStatus.Interrupted,
  RunStatus.Completed,
  RunStatus.Cancelled,
  RunStatus.Failed,
]);

/**
 * Executes durable runs for one worker and hands out session-scoped controllers (`forSession`). Several supervisors
 * may share one PostgreSQL store; leases and compare-and-swap commits keep each run advancing on one worker at a time.
 */
export class Supervisor {
  readonly workerId: string;
  readonly #store: RunLedger & RunQueue & RunWaits & RunConcurrency;
  readonly #catalog: FlowCatalog;
  readonly #clock: Clock;
  readonly #leaseMs: number;
  readonly #concurrency: number;
  readonly #stopGraceMs: number;
  readonly #onError: ((error: unknown, where: ErrorContext) => void) | undefined;
  readonly #deps: ExecutorDeps;
  readonly #executions = new Map<string, LocalExecution>();
  readonly #deferred = new DeferredRuns();
  readonly #engine: EngineHandle;
  /** Slots reserved by starts whose seed (taking the lease for this worker) is being written. */
  #reserved = 0;
  #state: State = 'idle';
  #pumping: Promise<void> | undefined;
  #pumpAgain = false;
  #renewing = false;
  #sweeping: Promise<void> | undefined;
  #slotSweep: Promise<void> | undefined;
  readonly #abandonedStartMs: number | false;
  readonly #removedVersions: RemovedVersions;
  #deployment: DeploymentCheck = { missing: [], failed: [] };
  #timers: NodeJS.Timeout[] = [];
  #unsubscribe: (() => void) | undefined;
  #stopping: Promise<void> | undefined;
  readonly #retention: CheckedRetention | undefined;
  readonly #onPruned: ((flow: string, runs: number) => void) | undefined;
  #retaining: Promise<void> | undefined;
  /** Fires when the earliest parked run this worker knows of is due. */
  readonly #wakeTimer = new WakeTimer(() => this.#wake());
  readonly #schedulePollMs: number;
  /** Starts the runs of flow schedules (running mode only). */
  #scheduler: Scheduler | undefined;

  constructor(options: SupervisorOptions) {
    const {
      leaseMs,
      concurrency,
      workerId,
      stopGraceMs,
      pipelineDepth,
      unknownDefinition,
      abandonedStartMs,
      removedVersions,
      schedulePollMs,
    } = checkSupervisorOptions(options);
    this.#schedulePollMs = schedulePollMs;
    this.#removedVersions = removedVersions;
    this.#abandonedStartMs = abandonedStartMs;
    this.workerId = workerId;
    this.#store = options.store;
    this.#catalog = options.catalog;
    this.#clock = options.clock ?? systemClock;
    this.#leaseMs = leaseMs;
    this.#concurrency = concurrency;
    this.#stopGraceMs = stopGraceMs;
    this.#onError = options.onError;
    this.#deps = {
      store: this.#store,
      catalog: this.#catalog,
      clock: this.#clock,
      onError: (error, where) => this.#report(error, where),
      pipelineDepth,
      unknownDefinition,
      tracer: options.tracer,
      workerId,
      startChild: (request) => childStarter(this, this.#clock)(request),
      onParked: (_runId, wakeAt) => this.#wakeTimer.arm(wakeAt),
    };
    this.#engine = this.#makeEngineHandle();
    this.#retention = checkRetentionOptions(options.retention);
    this.#onPruned = options.onPruned;
    if (this.#retention !== undefined && !hasRetention(options.store)) {
      throw new RimthanError('invalid_arguments', 'retention needs a store with the RunRetention role');
    }
  }

  /** True between start() and stop(). */
  get running(): boolean {
    return this.#state === 'running';
  }

  /** Runs this worker executes right now. */
  get activeRuns(): number {
    return this.#executions.size;
  }

  /** What the deploy check found when this supervisor started (see SupervisorOptions.removedVersions). */
  get deployment(): DeploymentCheck {
    return this.#deployment;
  }

  /**
   * Runs the deploy check (see SupervisorOptions.removedVersions; a refusal throws and leaves the supervisor idle),
   * then starts claiming work: adopts every seeded, non-terminal, not-interrupted run whose lease is free or expired.
   */
  async start(): Promise<void> {
    if (this.#state === 'running') return;
    if (this.#state !== 'idle') {
      const why =
        this.#state === 'observing'
          ? 'an observing supervisor never executes runs'
          : 'a stopped supervisor cannot start again';
      throw new RimthanError('unavailable', why);
    }
    this.#deployment = await checkDeployment(this.#store, this.#catalog, this.#removedVersions, this.#clock);
    if (this.#state !== 'idle') return;
    this.#state = 'running';
    this.#unsubscribe = this.#store.onNotify((runId) => this.#onNotify(runId));
    const every = (ms: number, fn: () => void): void => {
      const timer = setInterval(fn, Math.max(10, Math.floor(ms)));
      timer.unref();
      this.#timers.push(timer);
    };
    every(this.#leaseMs / 2, () => {
      this.#wake();
      void this.#refreshWakeTimer();
      this.#sweepSlots();
    });
    this.#sweepSlots();
    every(this.#leaseMs / 3, () => void this.#renew());
    const abandonedMs = this.#abandonedStartMs;
    if (abandonedMs !== false) {
      every(Math.min(this.#leaseMs, abandonedMs), () => this.#sweep(abandonedMs));
      this.#sweep(abandonedMs);
    }
    const retention = this.#retention;
    if (retention !== undefined) {
      every(retention.intervalMs, () => this.#retain(retention));
      this.#retain(retention);
    }
    this.#wake();
    await this.#pumping;
    await this.#refreshWakeTimer();
    await this.#startScheduler();
  }

  /** Syncs the catalog's schedules and starts the scheduler (a store without the schedules role has none). */
  async #startScheduler(): Promise<void> {
    const store = this.#store;
    if (this.#state !== 'running' || !keepsSchedules(store)) return;
    this.#scheduler = new Scheduler({
      store,
      catalog: this.#catalog,
      clock: this.#clock,
      pollMs: this.#schedulePollMs,
      forSession: (sessionId) => this.forSession(sessionId),
      onError: (error, where) => this.#report(error, where),
    });
    await this.#scheduler.start();
  }

  /** Arms the wake timer for the earliest parked run of the store (another worker's parks included). */
  async #refreshWakeTimer(): Promise<void> {
    if (this.#state !== 'running') return;
    try {
      const at = await this.#store.nextWakeAt();
      if (at === undefined || this.#state !== 'running') return;
      // Still due after a claim round: every slot is busy (an ending execution claims it) or this worker lacks its
      // flow (deferred). Look again a little later rather than spin.
      const now = Date.now();
      this.#wakeTimer.arm(at <= now ? now + OVERDUE_RECHECK_MS : at);
    } catch (error) {
      this.#report(error, { phase: 'claim' });
    }
  }

  /**
   * Accepts starts, resumes and cancels without ever executing: every started run is seeded `pending` (no local slot)
   * and announced to the workers on the store, which claim it; nothing is claimed, adopted, swept or checked here.
   * For an observer such as the console, which must never run work. Only from idle; stop() ends it.
   */
  observe(): void {
    if (this.#state === 'observing') return;
    if (this.#state !== 'idle') throw new RimthanError('unavailable', 'only an idle supervisor can observe');
    this.#state = 'observing';
  }

  /**
   * Stops claiming, lets each vertex in flight finish (up to stopGraceMs), aborts what is left without writing, and
   * releases the leases so another worker can adopt the runs at once. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    if (this.#state === 'idle' || this.#state === 'observing') {
      this.#state = 'stopped';
      return;
    }
    this.#state = 'stopping';
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    this.#wakeTimer.clear();
    this.#unsubscribe?.();
    await this.#scheduler?.stop();
    await this.#pumping;
    await this.#sweeping; // ends after the write in flight: it checks the state before each one
    await this.#slotSweep;
    await this.#retaining; // likewise, after the batch in flight
    const executions = [...this.#executions.values()];
    for (const e of executions) e.drain.abort();
    const all = Promise.all(executions.map((e) => e.done));
    const graceOver = new AbortController();
    const finished = await Promise.race([
      all.then(() => true),
      sleep(this.#stopGraceMs, [graceOver.signal]).then(() => false),
    ]);
    graceOver.abort();
    if (!finished) for (const e of executions) e.halt.abort(new Halt(HaltReason.Stop));
    await all;
    this.#state = 'stopped';
  }

  /** The controller of one session (the run tools hold one per session). */
  forSession(sessionId: string): SessionController {
    checkSessionId(sessionId);
    return new SupervisorSessionController(this.#engine, sessionId);
  }

  #makeEngineHandle(): EngineHandle {
    return {
      store: this.#store,
      catalog: this.#catalog,
      clock: this.#clock,
      assertAccepting: () => {
        if (this.#state !== 'running' && this.#state !== 'observing') {
          throw new RimthanError('unavailable', 'the run supervisor is not running');
        }
      },
      announce: (runId) => {
        this.#wake();
        this.#store.notify(runId).catch((error: unknown) => this.#report(error, { phase: 'notify', runId }));
      },
      isLocal: (runId) => this.#executions.has(runId),
      cancelLocal: async (runId, reason) => {
        const execution = this.#executions.get(runId);
        if (execution === undefined) return false;
        execution.halt.abort(new Halt(HaltReason.Cancel, reason));
        await execution.done;
        return true;
      },
      reserveSlot: () => this.#reserveSlot(),
    };
  }

  /** A free slot for a run being seeded here: its seed takes the lease, so no claim write is needed to execute it. */
  #reserveSlot(): LocalSlot | undefined {
    if (this.#state !== 'running' || this.#executions.size + this.#reserved >= this.#concurrency) return undefined;
    this.#reserved++;
    let held = true;
    const give = (): void => {
      if (held) this.#reserved--;
      held = false;
    };
    return {
      lease: { worker_id: this.workerId, lease_ms: this.#leaseMs },
      launch: (seeded, warm) => {
        give();
        if (this.#state === 'running' && !this.#executions.has(seeded.run_id)) {
          this.#launch(seeded, { epoch: seeded.record_revision, warm });
          return;
        }
        // Stopped while the seed was written: hand the run to whoever claims it next.
        void this.#release(seeded.run_id).then(() => this.#engine.announce(seeded.run_id));
      },
      cancel: () => {
        give();
        this.#wake();
      },
    };
  }

  #report(error: unknown, where: ErrorContext): void {
    try {
      this.#onError?.(error, where);
    } catch {
      // An observer's fault must not break the supervisor.
    }
  }

  /** Claims and launches work while slots are free; concurrent calls coalesce into one more round. */
  #wake(): void {
    if (this.#state !== 'running') return;
    if (this.#pumping !== undefined) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = this.#pump()
      .catch((error: unknown) => this.#report(error, { phase: 'claim' }))
      .finally(() => {
        this.#pumping = undefined;
      });
  }

  async #pump(): Promise<void> {
    do {
      this.#pumpAgain = false;
      const free = this.#concurrency - this.#executions.size - this.#reserved;
      if (free <= 0 || this.#state !== 'running') return;
      let claimed: RunRecord[];
      try {
        const skip = this.#deferred.active(Date.now());
        claimed = await (skip.length === 0
          ? this.#store.claimRuns(this.workerId, this.#leaseMs, free)
          : this.#store.claimRuns(this.workerId, this.#leaseMs, free, skip));
      } catch (error) {
        this.#report(error, { phase: 'claim' });
        return;
      }
      for (const record of claimed) {
        if (this.#executions.has(record.run_id)) continue;
        if (this.#state !== 'running') {
          void this.#release(record.run_id);
          continue;
        }
        // The claim bumped record_revision: that revision is this execution's epoch.
        this.#launch(record, { epoch: record.record_revision });
      }
      if (claimed.length >= free) this.#pumpAgain = true;
    } while (this.#pumpAgain);
    if (this.#wakeTimer.due(Date.now())) await this.#refreshWakeTimer();
  }

  #launch(record: RunRecord, start: ExecutionStart): void {
    const runId = record.run_id;
    const execution: LocalExecution = {
      halt: new AbortController(),
      drain: new AbortController(),
      done: Promise.resolve('released'),
    };
    this.#executions.set(runId, execution);
    const control = { halt: execution.halt.signal, drain: execution.drain.signal };
    execution.done = executeRun(this.#deps, record, control, start)
      .catch((error: unknown) => {
        this.#report(error, { phase: 'execution', runId });
        return 'error' as const;
      })
      .then(async (end) => {
        this.#executions.delete(runId);
        if (end === 'deferred') await this.#defer(record);
        else if (end !== 'error' && !LEASE_CLEARED.has(end)) await this.#release(runId);
        if (end !== 'error' && LEASE_CLEARED.has(end) && end !== 'parked') {
          await wakeParentOf(this.#store, record).catch((error: unknown) =>
            this.#report(error, { phase: 'notify', runId }),
          );
        }
        // A limited run that ended frees its slot: admit the oldest waiting run of its key (a sweep backs this up).
        if (end !== 'error' && TERMINAL_STATUSES.has(end as RunStatus)) {
          await promoteAfterEnd(this.#engine, record).catch((error: unknown) =>
            this.#report(error, { phase: 'sweep', runId }),
          );
        }
        // After a fault the lease is kept until it expires: a natural back-off before this or another worker retries.
        // A run that left `running` lost its lease in the same commit: nothing to release.
        if (end !== 'deferred') this.#deferred.forget(runId);
        this.#wake();
        return end;
      });
  }

  /**
   * This worker lacks the run's pinned definition: leave the run untouched for a worker that has it. Release the
   * lease, skip the run in this worker's claims for a back-off period, tell the other workers, and report it.
   */
  async #defer(record: RunRecord): Promise<void> {
    const delayMs = this.#deferred.add(record.run_id, Date.now());
    this.#report(
      new RimthanError(
        'unknown_definition',
        `flow ${record.definition_name}@${record.definition_version} is not registered on this worker; ` +
          `run left for another worker, retried here in ${delayMs} ms`,
      ),
      { phase: 'definition', runId: record.run_id },
    );
    await this.#release(record.run_id);
    this.#store.notify(record.run_id).catch((error: unknown) => {
      this.#report(error, { phase: 'notify', runId: record.run_id });
    });
  }

  async #release(runId: string): Promise<void> {
    try {
      await this.#store.releaseLease(this.workerId, runId);
    } catch (error) {
      this.#report(error, { phase: 'lease', runId });
    }
  }

  /** Fails abandoned starts (see abandoned-starts.ts); one sweep at a time, and stop() waits for it. */
  #sweep(olderThanMs: number): void {
    if (this.#sweeping !== undefined || this.#state !== 'running') return;
    const going = (): boolean => this.#state === 'running';
    this.#sweeping = failAbandonedStarts(this.#engine, olderThanMs, going).then(
      () => undefined,
      (error: unknown) => this.#report(error, { phase: 'sweep' }),
    );
    void this.#sweeping.finally(() => (this.#sweeping = undefined));
  }

  /** Promotes runs waiting for a concurrency slot that no ending run promoted (its worker died); one at a time. */
  #sweepSlots(): void {
    if (this.#slotSweep !== undefined || this.#state !== 'running') return;
    this.#slotSweep = sweepSlots(this.#engine).then(
      () => undefined,
      (error: unknown) => this.#report(error, { phase: 'sweep' }),
    );
    void this.#slotSweep.finally(() => (this.#slotSweep = undefined));
  }

  /** Deletes the finished runs retention lets go (see retention-sweep.ts); one sweep at a time, stop() waits for it. */
  #retain(policy: CheckedRetention): void {
    if (this.#retaining !== undefined || this.#state !== 'running') return;
    const store = this.#store;
    if (!hasRetention(store)) return;
    const going = (): boolean => this.#state === 'running';
    this.#retaining = sweepRetention(store, policy, this.#clock, going).then(
      (report) => {
        for (const [flow, runs] of Object.entries(report.by_flow)) {
          try {
            this.#onPruned?.(flow, runs);
          } catch {
            // An observer's fault is its own.
          }
        }
      },
      (error: unknown) => this.#report(error, { phase: 'sweep' }),
    );
    void this.#retaining.finally(() => (this.#retaining = undefined));
  }

  async #renew(): Promise<void> {
    const ids = [...this.#executions.keys()];
    if (ids.length === 0 || this.#renewing || this.#state !== 'running') return;
    this.#renewing = true;
    try {
      const held = new Set(await this.#store.renewLeases(this.workerId, ids, this.#leaseMs));
      for (const id of ids) {
        if (!held.has(id)) this.#executions.get(id)?.halt.abort(new Halt(HaltReason.LeaseLost));
      }
    } catch (error) {
      this.#report(error, { phase: 'lease' });
    } finally {
      this.#renewing = false;
    }
  }

  /** A wake-up: look for claimable work, and halt a local execution whose run is being cancelled elsewhere. */
  #onNotify(runId: string): void {
    this.#wake();
    const execution = this.#executions.get(runId);
    if (execution === undefined) return;
    this.#store.getRunById(runId).then(
      (record) => {
        if (record !== undefined && (record.cancel_requested || record.status !== RunStatus.Running)) {
          execution.halt.abort(new Halt(HaltReason.Cancel));
        }
      },
      (error: unknown) => this.#report(error, { phase: 'notify', runId }),
    );
  }
}
