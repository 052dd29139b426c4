/**
 * Executes one run from its latest checkpoint until it completes, pauses (interrupted), fails, is cancelled, or this
 * worker must let go (stop, lease loss, another owner). Every step is ONE store commit guarded by compare-and-swap on
 * the record revision and compare-and-append on the checkpoint revision, so two owners can never both advance a run.
 *
 * Vertex commits are pipelined (see CommitPipeline): the next vertex starts as soon as the previous one's commit is
 * issued, up to `pipelineDepth` commits in flight. Whatever ends the execution (completion, interrupt, failure,
 * cancel, stop) waits until every commit in flight is acknowledged, so an outcome is reported only once it is durable.
 */
import type { Clock } from '../../core/clock.js';
import type { JsonObject } from '../../core/json.js';
import type { FlowCatalog, FlowDefinition } from '../flow/catalog.js';
import { resolveNext, type CompiledVertex } from '../flow/graph.js';
import { emptyStep, routedStep, withSlots } from './branch-steps.js';
import { runFrontier, type FrontierEnd, type FrontierHost } from './frontier-run.js';
import { isSequential, planStep } from './frontier-plan.js';
import {
  RunStatus,
  StoreConflictError,
  type InterruptInfo,
  type RunRecord,
  type RunLedger,
  type RunQueue,
  type RunWaits,
} from '../store/types.js';
import { cancelReasonOf, haltReasonOf, HaltReason } from './abort.js';
import type { FlowCheckpoint } from './checkpoint-state.js';
import { buildFenceCommit, buildStepCommit, type StepCommit } from './commit-builder.js';
import { CommitPipeline, predictRecord, type Refusal } from './commit-pipeline.js';
import { attemptIdOf, TRIES_PER_EPOCH } from './idempotency-key.js';
import { loadInput, loadRunView, pinnedDefinition } from './run-loader.js';
import { cancelStep, failStep, interruptStep, parkStep, vertexStep, type PendingCompletion } from './steps.js';
import { cancelChildren } from './child-runs.js';
import { advanceCursor, describeWaits } from './wait-memo.js';
import { WaitSession, type ParkRequest, type StartChild } from './wait-session.js';
import type { RunTrace, RunTracer } from './run-trace.js';
import { runVertex, type VertexOutcome, type VertexRunRequest } from './vertex-runner.js';

/** Where a background fault happened (for the optional `onError` hook; never carries participant data by itself). */
export interface ErrorContext {
  readonly phase: 'vertex' | 'execution' | 'claim' | 'lease' | 'notify' | 'definition' | 'sweep' | 'schedule';
  readonly runId?: string;
  /** The flow's name (phase `vertex`). */
  readonly flow?: string;
  readonly vertex?: string;
  readonly attempt?: number;
}

export interface ExecutorDeps {
  readonly store: RunLedger & RunQueue & RunWaits;
  /** The worker whose lease this execution holds (a park gives it up). */
  readonly workerId: string;
  /** Starts child runs for `ctx.runChild` (undefined: a child start fails the vertex with child_unavailable). */
  readonly startChild?: StartChild | undefined;
  /** Told when a run parked, with the instant it is due (ms since the epoch), so the worker can set its timer. */
  readonly onParked?: ((runId: string, wakeAt: number) => void) | undefined;
  readonly catalog: FlowCatalog;
  readonly clock: Clock;
  readonly onError?: ((error: unknown, where: ErrorContext) => void) | undefined;
  /** Vertex commits in flight at once (1 = every vertex commit is durable before the next vertex starts). */
  readonly pipelineDepth: number;
  /** What to do with a run whose pinned definition this worker lacks: leave it for another worker, or fail it. */
  readonly unknownDefinition: 'defer' | 'fail';
  /** Follows each execution and its vertices (tracing); never given a run id, state or input. */
  readonly tracer?: RunTracer | undefined;
}

export interface ExecutionControl {
  /** Hard stop (reason: a `Halt`): aborts the vertex try in flight. */
  readonly halt: AbortSignal;
  /** Graceful stop: finish the vertex in flight, then let go. */
  readonly drain: AbortSignal;
}

/** What the start path already holds for a run it seeded with this worker's lease (saves reading it back). */
export interface WarmStart {
  readonly checkpoint: FlowCheckpoint;
  readonly input: JsonObject;
}

export interface ExecutionStart {
  /**
   * The record revision produced by this execution's own fencing write (the claim that leased the run, or the seed
   * commit that took the lease); durable before anything runs, so it names this execution uniquely.
   */
  readonly epoch: number;
  readonly warm?: WarmStart | undefined;
}

/**
 * How an execution ended: the run's status, `released` (let go, resumable), `lost` (another owner moved on) or
 * `deferred` (this worker's catalog lacks the pinned definition; the run was left untouched for another worker) or
 * `parked` (the run waits, still `running`, with no lease: a timer, an event or a child run wakes it).
 */
export type ExecutionEnd = RunStatus | 'released' | 'lost' | 'deferred' | 'parked';

const MAX_TERMINAL_TRIES = 8;

class RunExecution {
  readonly #deps: ExecutorDeps;
  readonly #control: ExecutionControl;
  readonly #runId: string;
  readonly #warm: WarmStart | undefined;
  readonly #pipeline: CommitPipeline;
  /** The record as it will be once every commit in flight has landed (the base of the next commit). */
  #record: RunRecord;
  #cp: FlowCheckpoint | undefined;
  #def: FlowDefinition | undefined;
  #gone = false;
  #epoch: number;
  #tries = 0;
  /** A refusal already taken out of the pipeline (by #commit or #refence), kept for #conclude. */
  #refusalSeen: Refusal | undefined;
  /** This execution's trace, when a tracer follows it. */
  #trace: RunTrace | undefined;

  constructor(deps: ExecutorDeps, claimed: RunRecord, control: ExecutionControl, start: ExecutionStart) {
    this.#deps = deps;
    this.#control = control;
    this.#runId = claimed.run_id;
    this.#record = claimed;
    this.#epoch = start.epoch;
    this.#warm = start.warm;
    this.#pipeline = new CommitPipeline(deps.store, deps.pipelineDepth);
  }

  #now(): string {
    return this.#deps.clock.now().toISOString();
  }

  #base(): { record: RunRecord; now: string; totalVertices: number } {
    return { record: this.#record, now: this.#now(), totalVertices: this.#def?.graph.size ?? 0 };
  }

  async #reload(): Promise<void> {
    const view = await loadRunView(this.#deps.store, () => this.#deps.store.getRunById(this.#runId));
    if (view === undefined) {
      this.#gone = true;
      return;
    }
    this.#record = view.record;
    this.#cp = view.checkpoint;
  }

  async run(): Promise<ExecutionEnd> {
    const tracer = this.#deps.tracer;
    if (tracer === undefined) return this.#run();
    const trace = tracer({ flow: this.#record.definition_name, version: this.#record.definition_version });
    this.#trace = trace;
    try {
      const end = await this.#run();
      trace.end(end);
      return end;
    } catch (error) {
      trace.end('error');
      throw error;
    }
  }

  async #run(): Promise<ExecutionEnd> {
    const warm = this.#warm;
    if (warm === undefined) await this.#reload();
    else this.#cp = warm.checkpoint;
    if (this.#gone) return 'lost';
    this.#def = pinnedDefinition(this.#deps.catalog, this.#record);
    if (this.#record.status !== RunStatus.Running) return this.#record.status;
    if (this.#record.cancel_requested) return this.#cancel(undefined);
    if (this.#def === undefined) {
      if (this.#deps.unknownDefinition === 'defer') return 'deferred';
      return this.#fail(`flow ${this.#record.definition_name}@${this.#record.definition_version} is not registered`);
    }
    if (this.#cp === undefined) return this.#fail('the latest checkpoint is unreadable');
    const input = warm?.input ?? (await loadInput(this.#deps.store, this.#record));
    if (input === undefined) return this.#fail('the run input is missing or unreadable');
    return this.#loop(this.#def, input);
  }

  async #loop(def: FlowDefinition, input: JsonObject): Promise<ExecutionEnd> {
    const { halt, drain } = this.#control;
    for (;;) {
      if (this.#pipeline.refused) return this.#conclude();
      if (this.#pipeline.full) {
        await this.#pipeline.waitOldest();
        continue;
      }
      const record = this.#record;
      const cp = this.#cp;
      if (record.status !== RunStatus.Running || record.cancel_requested) return this.#conclude();
      if (halt.aborted || drain.aborted) return this.#halted();
      if (cp === undefined) return this.#fail('the latest checkpoint is unreadable');
      if (cp.frontier !== undefined) {
        const end = await runFrontier(this.#frontierHost(def, input), { ...cp, frontier: cp.frontier });
        if (end.kind === 'continue') continue;
        return this.#frontierEnd(end);
      }
      const vertex = cp.next_vertex === null ? undefined : def.graph.vertices.get(cp.next_vertex);
      if (vertex === undefined) return this.#fail('the checkpoint names no vertex of the flow');
      if (vertex.forEach !== undefined) {
        // A fan-out reached without a frontier (the start vertex, a resume, an upgrade): expand it over the state.
        const plan = planStep(def.graph, cp.flow_state, [
          { vertex: vertex.id, ...(cp.failure ? { failure: cp.failure } : {}) },
        ]);
        if (!plan.ok) return this.#fail(plan.reason);
        if (plan.slots.length === 0) {
          if (await this.#commit(emptyStep({ ...this.#base(), cp }), undefined)) return this.#record.status;
          return this.#conclude();
        }
        this.#cp = withSlots(cp, plan.slots);
        continue;
      }
      const waits = new WaitSession(
        {
          store: this.#deps.store,
          clock: this.#deps.clock,
          runId: this.#runId,
          sessionId: this.#record.session_id,
          vertex: vertex.id,
          visit: cp.steps,
          cursor: cp.events,
          startChild: this.#deps.startChild,
        },
        cp.waits,
      );
      const vertexEnded = this.#trace?.startVertex(vertex.id);
      const outcome = await this.#runVertex(vertexEnded, {
        waits,
        runId: this.#runId,
        vertex,
        state: cp.flow_state,
        input,
        resume: cp.resume ?? undefined,
        halt,
        drain,
        ...(def.graph.reducers.size === 0 ? {} : { reducers: def.graph.reducers }),
        ...(cp.failure === undefined ? {} : { failure: cp.failure }),
        beginTry: () => this.#beginTry(),
        onTryFailed: (error, attempt) =>
          this.#deps.onError?.(error, {
            phase: 'vertex',
            runId: this.#runId,
            flow: def.name,
            vertex: vertex.id,
            attempt,
          }),
      });
      let step: StepCommit;
      let pending: PendingCompletion | undefined;
      switch (outcome.kind) {
        case 'halted':
          return this.#halted();
        case 'parked': {
          const end = await this.#park(cp, waits, outcome.park);
          if (end === 'ready') continue;
          return end;
        }
        case 'completed': {
          const memo = waits.memo;
          if (memo.waits.length > 0) {
            const events = advanceCursor(cp.events, memo);
            this.#cp = events === undefined ? cp : { ...cp, events };
          }
          pending = { vertex, state: outcome.state, attemptId: outcome.attemptId, message: describeWaits(memo) };
          const next = resolveNext(def.graph, vertex, outcome.state);
          if (!next.ok) return this.#fail(`the edge after ${vertex.label} named no vertex of the flow`, pending);
          const plan = planStep(
            def.graph,
            outcome.state,
            next.next.map((v) => ({ vertex: v })),
          );
          if (!plan.ok) return this.#fail(plan.reason, pending);
          step = vertexStep({
            ...this.#base(),
            cp: this.#cp ?? cp,
            done: pending,
            next: plan.slots[0]?.vertex ?? null,
          });
          if (plan.slots.length > 0 && !isSequential(plan.slots)) {
            step = { ...step, checkpoint: withSlots(step.checkpoint, plan.slots) };
          }
          if (plan.slots.length > 0) {
            // The run goes on: issue the commit and start the next vertex without waiting for its acknowledgement.
            this.#issue(step, pending);
            continue;
          }
          break;
        }
        case 'interrupted':
          step = this.#interrupt(cp, vertex, {
            reason: 'awaiting_input',
            vertex: vertex.id,
            ...(outcome.message === undefined ? {} : { message: outcome.message }),
          });
          break;
        case 'failed':
          if (vertex.onError !== undefined) {
            // Error route: the handler takes over with the failure instead of the run pausing.
            const handler = def.graph.vertices.get(vertex.onError);
            const failure = outcome.failure;
            const plan = planStep(def.graph, cp.flow_state, [{ vertex: vertex.onError, failure }]);
            if (!plan.ok) return this.#fail(plan.reason);
            if (handler === undefined) return this.#fail('the error route names no vertex of the flow');
            pending = { vertex, state: cp.flow_state, attemptId: outcome.attemptId };
            this.#issue(
              routedStep({ ...this.#base(), cp, done: pending, failure, handler, slots: plan.slots }),
              pending,
            );
            continue;
          }
          step = this.#interrupt(cp, vertex, {
            reason: 'task_failed',
            vertex: vertex.id,
            message: `failed after ${outcome.tries} attempt${outcome.tries === 1 ? '' : 's'}: ${outcome.reason}`,
          });
          break;
      }
      // The step that ends this execution (completion or pause) lands after everything in flight.
      if (await this.#commit(step, pending)) return this.#record.status;
      return this.#conclude();
    }
  }

  /**
   * Parks the run: the checkpoint keeps the visit's waits (written only when they changed), then the store drops the
   * lease and records what the run awaits. `ready` when it arrived meanwhile: the vertex runs again at once.
   */
  async #park(cp: FlowCheckpoint, waits: WaitSession, park: ParkRequest): Promise<ExecutionEnd | 'ready'> {
    const memo = waits.memo;
    const unchanged = cp.waits !== undefined && JSON.stringify(cp.waits) === JSON.stringify(memo);
    if (!unchanged) {
      const step = parkStep({ ...this.#base(), cp, waits: memo, summary: park.summary });
      if (!(await this.#commit(step, undefined))) return this.#conclude();
    } else {
      const settled = await this.#pipeline.settle();
      if ('refusal' in settled) {
        this.#refusalSeen = settled.refusal;
        return this.#conclude();
      }
    }
    if (this.#control.halt.aborted || this.#control.drain.aborted) return this.#halted();
    const outcome = await this.#deps.store.parkRun({
      run_id: this.#runId,
      worker_id: this.#deps.workerId,
      expected_record_revision: this.#record.record_revision,
      wait_until: park.wait_until,
      ...(park.event === undefined ? {} : { event: park.event }),
      ...(park.child === undefined ? {} : { child: park.child }),
    });
    if (outcome === 'ready') return 'ready';
    if (outcome === 'stale') {
      await this.#reload();
      return this.#settle(undefined);
    }
    this.#deps.onParked?.(this.#runId, park.wait_until);
    return 'parked';
  }

  /** What a parallel step (frontier-run.ts) uses of this execution. */
  #frontierHost(def: FlowDefinition, input: JsonObject): FrontierHost {
    return {
      runId: this.#runId,
      def,
      input,
      halt: this.#control.halt,
      drain: this.#control.drain,
      checkpoint: () => this.#cp as FlowCheckpoint,
      base: () => this.#base(),
      beginTry: () => this.#beginTry(),
      onTryFailed: (vertex, error, attempt) =>
        this.#deps.onError?.(error, {
          phase: 'vertex',
          runId: this.#runId,
          flow: def.name,
          vertex: vertex.id,
          attempt,
        }),
      runVertex: (request) => this.#runVertex(this.#trace?.startVertex(request.vertex.id), request),
      issue: async (step) => {
        while (this.#pipeline.full && !this.#pipeline.refused) await this.#pipeline.waitOldest();
        if (this.#pipeline.refused) return false;
        this.#issue(step, undefined);
        return true;
      },
    };
  }

  /** How a parallel step that did not simply go on ends this execution. */
  async #frontierEnd(end: Exclude<FrontierEnd, { kind: 'continue' }>): Promise<ExecutionEnd> {
    switch (end.kind) {
      case 'finish':
        if (await this.#commit(end.step, undefined)) return this.#record.status;
        return this.#conclude();
      case 'fail':
        return this.#fail(end.message);
      case 'halted':
        return this.#halted();
      case 'refused':
        return this.#conclude();
    }
  }

  /** Runs a vertex, telling its trace (when followed) how it ended. */
  async #runVertex(ended: ((outcome: string) => void) | undefined, request: VertexRunRequest): Promise<VertexOutcome> {
    if (ended === undefined) return runVertex(request);
    try {
      const outcome = await runVertex(request);
      ended(outcome.kind);
      return outcome;
    } catch (error) {
      ended('error');
      throw error;
    }
  }

  #interrupt(cp: FlowCheckpoint, vertex: CompiledVertex, info: InterruptInfo): StepCommit {
    return interruptStep({ ...this.#base(), cp, vertex, info });
  }

  /** The attempt id of the next try: the epoch and a per-execution sequence number (no write per try). */
  async #beginTry(): Promise<number | undefined> {
    if (this.#tries + 1 >= TRIES_PER_EPOCH && !(await this.#refence())) return undefined;
    this.#tries += 1;
    return attemptIdOf(this.#epoch, this.#tries);
  }

  /** Starts a new epoch with a patch-only fencing commit (only after 2^21 - 1 tries in one execution). */
  async #refence(): Promise<boolean> {
    const settled = await this.#pipeline.settle();
    if ('refusal' in settled) {
      this.#refusalSeen = settled.refusal;
      return false;
    }
    if (settled.record !== undefined) this.#record = settled.record;
    try {
      this.#record = await this.#deps.store.commit(buildFenceCommit(this.#record, this.#now()));
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      await this.#reload();
      return false;
    }
    this.#epoch = this.#record.record_revision;
    this.#tries = 0;
    return true;
  }

  /** Issues a step's commit behind the ones in flight and moves the predicted position past it. */
  #issue(step: StepCommit, pending: PendingCompletion | undefined): void {
    const commit = buildStepCommit(step);
    this.#pipeline.issue(commit, step, pending);
    this.#record = predictRecord(this.#record, commit);
    this.#cp = step.checkpoint;
  }

  /** Issues a step and waits until it and everything before it are acknowledged; false when one was refused. */
  async #commit(step: StepCommit, pending: PendingCompletion | undefined): Promise<boolean> {
    this.#issue(step, pending);
    const settled = await this.#pipeline.settle();
    if ('refusal' in settled) {
      this.#refusalSeen = settled.refusal;
      return false;
    }
    if (settled.record !== undefined) this.#record = settled.record;
    return true;
  }

  /**
   * Waits for the commits in flight, then decides from the durable state what this execution still owes. A refused
   * commit means someone else wrote (a cancel request, another owner): reload, and fold the refused completion into a
   * cancellation only if nobody appended a checkpoint meanwhile. A fault that is not a refusal is thrown.
   */
  async #conclude(cancelReason?: string): Promise<ExecutionEnd> {
    const settled = await this.#pipeline.settle();
    const refusal = this.#refusalSeen ?? ('refusal' in settled ? settled.refusal : undefined);
    this.#refusalSeen = undefined;
    if (refusal === undefined) {
      if ('record' in settled && settled.record !== undefined) this.#record = settled.record;
      if (this.#record.status !== RunStatus.Running) return this.#record.status;
      await this.#reload();
      return this.#settle(undefined, cancelReason);
    }
    if (!(refusal.error instanceof StoreConflictError)) throw refusal.error;
    const readRevision = refusal.step.record.checkpoint_revision;
    await this.#reload();
    const fold = this.#record.checkpoint_revision === readRevision ? refusal.pending : undefined;
    return this.#settle(fold, cancelReason);
  }

  /** From a fresh record: what this execution still owes (a cancellation, or nothing: let go). */
  async #settle(pending: PendingCompletion | undefined, cancelReason?: string): Promise<ExecutionEnd> {
    if (this.#gone) return 'lost';
    const record = this.#record;
    if (record.status !== RunStatus.Running) return record.status;
    if (record.cancel_requested || cancelReason !== undefined) return this.#cancel(pending, cancelReason);
    return this.#control.drain.aborted ? 'released' : 'lost';
  }

  async #halted(): Promise<ExecutionEnd> {
    const { halt } = this.#control;
    if (halt.aborted) {
      const reason = haltReasonOf(halt);
      if (reason === HaltReason.Stop || reason === HaltReason.LeaseLost) {
        const settled = await this.#pipeline.settle();
        this.#refusalSeen = undefined;
        if ('refusal' in settled && !(settled.refusal.error instanceof StoreConflictError)) throw settled.refusal.error;
        return reason === HaltReason.Stop ? 'released' : 'lost';
      }
      // A local cancellation: this execution writes the terminal checkpoint itself, after its commits in flight.
      return this.#conclude(cancelReasonOf(halt));
    }
    return this.#conclude();
  }

  /**
   * Appends the one terminal checkpoint of a cancellation. The reason is the one the local cancel handed over, else
   * the summary a cancel request left on the record.
   */
  async #cancel(pending: PendingCompletion | undefined, cancelReason?: string): Promise<ExecutionEnd> {
    let fold = pending;
    for (let i = 0; i < MAX_TERMINAL_TRIES && !this.#gone; i++) {
      const record = this.#record;
      if (record.status !== RunStatus.Running && record.status !== RunStatus.Interrupted) return record.status;
      const summary = record.status_summary.length > 0 ? record.status_summary : 'cancel requested';
      const reason = cancelReason ?? summary;
      const revision = record.checkpoint_revision;
      if (await this.#commit(cancelStep({ ...this.#base(), cp: this.#cp, reason, pending: fold }), undefined)) {
        await cancelChildren(this.#deps, this.#runId, (error) =>
          this.#deps.onError?.(error, { phase: 'execution', runId: this.#runId }),
        );
        return RunStatus.Cancelled;
      }
      const refusal = this.#refusalSeen;
      this.#refusalSeen = undefined;
      if (refusal !== undefined && !(refusal.error instanceof StoreConflictError)) throw refusal.error;
      await this.#reload();
      if (this.#record.checkpoint_revision !== revision) fold = undefined;
    }
    return 'lost';
  }

  /** Ends the run as failed (a definition, checkpoint, input or edge it cannot go on with). */
  async #fail(message: string, pending?: PendingCompletion): Promise<ExecutionEnd> {
    const step = failStep({ ...this.#base(), cp: this.#cp, message, pending });
    if (await this.#commit(step, undefined)) return RunStatus.Failed;
    return this.#conclude();
  }
}

/**
 * Runs `claimed` (a record this worker holds the lease for) until it ends or must be let go. `start.epoch` must be the
 * record revision produced by the write that gave this worker the lease (see ExecutionStart).
 */
export function executeRun(
  deps: ExecutorDeps,
  claimed: RunRecord,
  control: ExecutionControl,
  start: ExecutionStart,
): Promise<ExecutionEnd> {
  return new RunExecution(deps, claimed, control, start).run();
}
