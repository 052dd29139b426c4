/**
 * Executes one run from its latest checkpoint until it completes, pauses (interrupted), fails, is cancelled, or this
 * worker must let go (stop, lease loss, another owner). Every step is ONE store commit guarded by compare-and-swap on
 * the record revision and compare-and-append on the checkpoint revision, so two owners can never both advance a run.
 */
import type { Clock } from '../../core/clock.js';
import type { JsonObject } from '../../core/json.js';
import type { FlowCatalog, FlowDefinition } from '../flow/catalog.js';
import { resolveNext, type CompiledVertex } from '../flow/graph.js';
import { RunStatus, StoreConflictError, type InterruptInfo, type RunRecord, type RunStore } from '../store/types.js';
import { haltReasonOf, HaltReason } from './abort.js';
import type { FlowCheckpoint } from './checkpoint-state.js';
import { buildFenceCommit, buildStepCommit, type StepCommit } from './commit-builder.js';
import { loadInput, loadRunView, pinnedDefinition } from './run-loader.js';
import { cancelStep, failStep, interruptStep, vertexStep, type PendingCompletion } from './steps.js';
import { runVertex } from './vertex-runner.js';

/** Where a background fault happened (for the optional `onError` hook; never carries participant data by itself). */
export interface ErrorContext {
  readonly phase: 'vertex' | 'execution' | 'claim' | 'lease' | 'notify';
  readonly runId?: string;
  readonly vertex?: string;
  readonly attempt?: number;
}

export interface ExecutorDeps {
  readonly store: RunStore;
  readonly catalog: FlowCatalog;
  readonly clock: Clock;
  readonly onError?: ((error: unknown, where: ErrorContext) => void) | undefined;
}

export interface ExecutionControl {
  /** Hard stop (reason: a `Halt`): aborts the vertex try in flight. */
  readonly halt: AbortSignal;
  /** Graceful stop: finish the vertex in flight, then let go. */
  readonly drain: AbortSignal;
}

/** How an execution ended: the run's status, `released` (let go, resumable) or `lost` (another owner moved on). */
export type ExecutionEnd = RunStatus | 'released' | 'lost';

const MAX_TERMINAL_TRIES = 8;

class RunExecution {
  readonly #deps: ExecutorDeps;
  readonly #control: ExecutionControl;
  readonly #runId: string;
  #record: RunRecord;
  #cp: FlowCheckpoint | undefined;
  #def: FlowDefinition | undefined;
  #gone = false;

  constructor(deps: ExecutorDeps, claimed: RunRecord, control: ExecutionControl) {
    this.#deps = deps;
    this.#control = control;
    this.#runId = claimed.run_id;
    this.#record = claimed;
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
    await this.#reload();
    if (this.#gone) return 'lost';
    this.#def = pinnedDefinition(this.#deps.catalog, this.#record);
    if (this.#record.status !== RunStatus.Running) return this.#record.status;
    if (this.#record.cancel_requested) return this.#cancel(undefined);
    if (this.#def === undefined) {
      return this.#fail(`flow ${this.#record.definition_name}@${this.#record.definition_version} is not registered`);
    }
    if (this.#cp === undefined) return this.#fail('the latest checkpoint is unreadable');
    const input = await loadInput(this.#deps.store, this.#record);
    if (input === undefined) return this.#fail('the run input is missing or unreadable');
    if (!(await this.#fence())) return this.#settle(undefined);
    return this.#loop(this.#def, input);
  }

  async #loop(def: FlowDefinition, input: JsonObject): Promise<ExecutionEnd> {
    const { halt, drain } = this.#control;
    for (;;) {
      const record = this.#record;
      const cp = this.#cp;
      if (record.status !== RunStatus.Running) return record.status;
      if (record.cancel_requested) return this.#cancel(undefined);
      if (halt.aborted || drain.aborted) return this.#halted();
      if (cp === undefined) return this.#fail('the latest checkpoint is unreadable');
      const vertex = cp.next_vertex === null ? undefined : def.graph.vertices.get(cp.next_vertex);
      if (vertex === undefined) return this.#fail('the checkpoint names no vertex of the flow');
      const outcome = await runVertex({
        runId: this.#runId,
        vertex,
        state: cp.flow_state,
        input,
        resume: cp.resume ?? undefined,
        halt,
        drain,
        beginTry: (n) => this.#beginTry(n),
        onTryFailed: (error, attempt) =>
          this.#deps.onError?.(error, { phase: 'vertex', runId: this.#runId, vertex: vertex.id, attempt }),
      });
      let step: StepCommit;
      let pending: PendingCompletion | undefined;
      switch (outcome.kind) {
        case 'halted':
          return this.#halted();
        case 'completed': {
          pending = { vertex, state: outcome.state, attemptId: outcome.attemptId };
          const next = resolveNext(def.graph, vertex, outcome.state);
          if (!next.ok) return this.#fail(`the edge after ${vertex.label} named no vertex of the flow`, pending);
          step = vertexStep({ ...this.#base(), cp, done: pending, next: next.next });
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
          step = this.#interrupt(cp, vertex, {
            reason: 'task_failed',
            vertex: vertex.id,
            message: `failed after ${outcome.tries} attempt${outcome.tries === 1 ? '' : 's'}: ${outcome.reason}`,
          });
          break;
      }
      const readRevision = step.record.checkpoint_revision;
      if (await this.#commit(step)) continue;
      // A completion may still be folded into a cancel only if nobody appended a checkpoint meanwhile.
      return this.#settle(this.#record.checkpoint_revision === readRevision ? pending : undefined);
    }
  }

  #interrupt(cp: FlowCheckpoint, vertex: CompiledVertex, info: InterruptInfo): StepCommit {
    return interruptStep({ ...this.#base(), cp, vertex, info });
  }

  /** Try 1 runs under the revision of the last commit; each retry first fences a new one (its durable attempt id). */
  async #beginTry(n: number): Promise<number | undefined> {
    if (n === 1) return this.#record.record_revision;
    return (await this.#fence()) ? this.#record.record_revision : undefined;
  }

  /** Bumps record_revision; false (after reloading) when the record moved under us. */
  async #fence(): Promise<boolean> {
    try {
      this.#record = await this.#deps.store.commit(buildFenceCommit(this.#record, this.#now()));
      return true;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      await this.#reload();
      return false;
    }
  }

  /** Commits a step; false (after reloading) on a compare-and-swap conflict. */
  async #commit(step: StepCommit): Promise<boolean> {
    try {
      this.#record = await this.#deps.store.commit(buildStepCommit(step));
      this.#cp = step.checkpoint;
      return true;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
      await this.#reload();
      return false;
    }
  }

  /** After a refused write or a refused fence: decide from the fresh record what this execution still owes. */
  async #settle(pending: PendingCompletion | undefined): Promise<ExecutionEnd> {
    if (this.#gone) return 'lost';
    const record = this.#record;
    if (record.status !== RunStatus.Running) return record.status;
    if (record.cancel_requested) return this.#cancel(pending);
    return this.#control.drain.aborted ? 'released' : 'lost';
  }

  async #halted(): Promise<ExecutionEnd> {
    const { halt } = this.#control;
    if (halt.aborted) {
      const reason = haltReasonOf(halt);
      if (reason === HaltReason.Stop) return 'released';
      if (reason === HaltReason.LeaseLost) return 'lost';
    }
    await this.#reload();
    return this.#settle(undefined);
  }

  /** Appends the one terminal checkpoint of a cancellation; the reason is the summary the cancel request left. */
  async #cancel(pending: PendingCompletion | undefined): Promise<ExecutionEnd> {
    let fold = pending;
    for (let i = 0; i < MAX_TERMINAL_TRIES && !this.#gone; i++) {
      const record = this.#record;
      if (record.status !== RunStatus.Running && record.status !== RunStatus.Interrupted) return record.status;
      const reason = record.status_summary.length > 0 ? record.status_summary : 'cancel requested';
      const revision = record.checkpoint_revision;
      if (await this.#commit(cancelStep({ ...this.#base(), cp: this.#cp, reason, pending: fold }))) {
        return RunStatus.Cancelled;
      }
      if (this.#record.checkpoint_revision !== revision) fold = undefined;
    }
    return 'lost';
  }

  /** Ends the run as failed (a definition, checkpoint, input or edge it cannot go on with). */
  async #fail(message: string, pending?: PendingCompletion): Promise<ExecutionEnd> {
    const step = failStep({ ...this.#base(), cp: this.#cp, message, pending });
    if (await this.#commit(step)) return RunStatus.Failed;
    return this.#settle(undefined);
  }
}

/** Runs `claimed` (a record this worker holds the lease for) until it ends or must be let go. */
export function executeRun(deps: ExecutorDeps, claimed: RunRecord, control: ExecutionControl): Promise<ExecutionEnd> {
  return new RunExecution(deps, claimed, control).run();
}
