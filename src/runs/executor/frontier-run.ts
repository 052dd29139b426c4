/**
 * Runs one parallel step: every branch not yet committed runs concurrently; each completion is committed on its own
 * (in completion order, through the execution's commit pipeline), and the last one carries the barrier — the merge in
 * slot order and the next step. A branch that interrupts or fails without an error route pauses the run once the
 * other branches settled (their completions stay durable); a halt, a drain or a refused commit ends the step early.
 */
import type { JsonObject } from '../../core/json.js';
import type { FlowDefinition } from '../flow/catalog.js';
import type { CompiledVertex } from '../flow/graph.js';
import { mergeBranches, type BranchWrite } from './branch-merge.js';
import { barrierStep, branchStep } from './branch-steps.js';
import type { FlowCheckpoint } from './checkpoint-state.js';
import type { StepCommit } from './commit-builder.js';
import { pendingSlots, type Frontier, type SlotResult } from './frontier-state.js';
import { barrierTargets, planStep } from './frontier-plan.js';
import type { InterruptInfo, RunRecord } from '../store/types.js';
import { interruptStep } from './steps.js';
import type { VertexOutcome, VertexRunRequest } from './vertex-runner.js';

/** What a parallel step needs of the execution that runs it. */
export interface FrontierHost {
  readonly runId: string;
  readonly def: FlowDefinition;
  readonly input: JsonObject;
  readonly halt: AbortSignal;
  readonly drain: AbortSignal;
  /** The checkpoint as it will be once every issued commit landed. */
  checkpoint(): FlowCheckpoint;
  base(): { record: RunRecord; now: string; totalVertices: number };
  beginTry(): Promise<number | undefined>;
  onTryFailed(vertex: CompiledVertex, error: unknown, attempt: number): void;
  runVertex(request: VertexRunRequest): Promise<VertexOutcome>;
  /** Issues a step behind the commits in flight (waiting for room); false once a commit was refused. */
  issue(step: StepCommit): Promise<boolean>;
}

export type FrontierEnd =
  /** The barrier was issued and the run goes on with the next step. */
  | { readonly kind: 'continue' }
  /** The step that ends this execution: the run completed, or pauses at a branch (interrupt, spent tries). */
  | { readonly kind: 'finish'; readonly step: StepCommit }
  | { readonly kind: 'fail'; readonly message: string }
  | { readonly kind: 'halted' }
  | { readonly kind: 'refused' };

type Parallel = FlowCheckpoint & { readonly frontier: Frontier };

interface Pause {
  readonly index: number;
  readonly vertex: CompiledVertex;
  readonly info: InterruptInfo;
}

function pauseOf(index: number, vertex: CompiledVertex, outcome: VertexOutcome): Pause | undefined {
  if (outcome.kind === 'interrupted') {
    const info: InterruptInfo = {
      reason: 'awaiting_input',
      vertex: vertex.id,
      ...(outcome.message === undefined ? {} : { message: outcome.message }),
    };
    return { index, vertex, info };
  }
  if (outcome.kind === 'failed' && vertex.onError === undefined) {
    const tries = `${outcome.tries} attempt${outcome.tries === 1 ? '' : 's'}`;
    return {
      index,
      vertex,
      info: { reason: 'task_failed', vertex: vertex.id, message: `failed after ${tries}: ${outcome.reason}` },
    };
  }
  return undefined;
}

function resultOf(outcome: VertexOutcome): SlotResult | undefined {
  if (outcome.kind === 'completed') return { update: outcome.state, attempt: outcome.attemptId };
  if (outcome.kind === 'failed') return { update: {}, attempt: outcome.attemptId, routed: outcome.failure };
  return undefined;
}

/** Runs the parallel step of `start` (a checkpoint with a frontier) until its barrier, a pause or a stop. */
export async function runFrontier(host: FrontierHost, start: Parallel): Promise<FrontierEnd> {
  const { def } = host;
  const graph = def.graph;
  const local = new AbortController();
  const onHalt = (): void => local.abort(host.halt.reason);
  if (host.halt.aborted) onHalt();
  else host.halt.addEventListener('abort', onHalt, { once: true });

  /** Set by the branches' callbacks as outcomes arrive. */
  const st: { refused: boolean; halted: boolean; pause?: Pause; end?: FrontierEnd } = { refused: false, halted: false };
  // A function, so the check after an await is not narrowed away by the one before it.
  const failed = (): boolean => st.end?.kind === 'fail';
  let chain: Promise<void> = Promise.resolve();

  const commitResult = async (index: number, vertex: CompiledVertex, result: SlotResult): Promise<void> => {
    const cp = host.checkpoint() as Parallel;
    const frontier = cp.frontier;
    const others = pendingSlots(frontier).filter((i) => i !== index);
    const handler = result.routed === undefined ? undefined : vertex.onError;
    const common = { ...host.base(), cp, vertex, result, ...(handler === undefined ? {} : { handler }) };
    if (others.length > 0) {
      if (!(await host.issue(branchStep({ ...common, index })))) st.refused = true;
      return;
    }
    const done = frontier.done.map((d, i) => (i === index ? result : d));
    const writes: BranchWrite[] = frontier.slots.map((slot, i) => ({
      vertex: slot.vertex,
      update: done[i]?.update ?? {},
      writes: graph.vertices.get(slot.vertex)?.writes,
    }));
    const merged = mergeBranches(cp.flow_state, writes, graph.reducers);
    if (!merged.ok) {
      st.end = { kind: 'fail', message: merged.reason };
      return;
    }
    const targets = barrierTargets(graph, merged.state, { slots: frontier.slots, done });
    const plan = targets.ok ? planStep(graph, merged.state, targets.targets) : targets;
    if (!plan.ok) {
      st.end = { kind: 'fail', message: plan.reason };
      return;
    }
    const step = barrierStep({ ...common, merged: merged.state, slots: plan.slots });
    if (plan.slots.length === 0) {
      st.end = { kind: 'finish', step };
      return;
    }
    if (await host.issue(step)) st.end = { kind: 'continue' };
    else st.refused = true;
  };

  const onOutcome = async (index: number, vertex: CompiledVertex, outcome: VertexOutcome): Promise<void> => {
    if (outcome.kind === 'halted') {
      st.halted = true;
      return;
    }
    if (st.refused || st.end !== undefined) return;
    const paused = pauseOf(index, vertex, outcome);
    if (paused !== undefined) {
      if (st.pause === undefined || paused.index < st.pause.index) st.pause = paused;
      return;
    }
    const result = resultOf(outcome);
    if (result === undefined) return;
    await commitResult(index, vertex, result);
    if (st.refused || failed()) local.abort();
  };

  const resumeFor = start.resume ?? undefined;
  let resumeGiven = false;
  const branches = pendingSlots(start.frontier).map(async (index) => {
    const slot = start.frontier.slots[index];
    const vertex = slot === undefined ? undefined : graph.vertices.get(slot.vertex);
    if (slot === undefined || vertex === undefined) {
      st.end = { kind: 'fail', message: 'the checkpoint names no vertex of the flow' };
      return;
    }
    const takesResume = resumeFor !== undefined && !resumeGiven && slot.vertex === start.next_vertex;
    if (takesResume) resumeGiven = true;
    const outcome = await host.runVertex({
      runId: host.runId,
      vertex,
      state: start.flow_state,
      input: host.input,
      resume: takesResume ? resumeFor : undefined,
      halt: local.signal,
      drain: host.drain,
      beginTry: () => host.beginTry(),
      onTryFailed: (error, attempt) => host.onTryFailed(vertex, error, attempt),
      collectUpdate: true,
      ...(slot.item === undefined ? {} : { item: slot.item }),
      ...(slot.index === undefined ? {} : { index: slot.index }),
      ...(slot.failure === undefined ? {} : { failure: slot.failure }),
    });
    chain = chain.then(() => onOutcome(index, vertex, outcome));
    await chain;
  });
  try {
    await Promise.all(branches);
    await chain;
  } finally {
    host.halt.removeEventListener('abort', onHalt);
  }
  if (st.refused) return { kind: 'refused' };
  if (st.end?.kind === 'fail') return st.end;
  if (st.halted || host.halt.aborted) return { kind: 'halted' };
  if (st.pause !== undefined) return pauseEnd(host, st.pause);
  return st.end ?? { kind: 'halted' };
}

/** The run pauses at the first paused branch (slot order); the others' completions are already issued. */
function pauseEnd(host: FrontierHost, pause: Pause): FrontierEnd {
  const step = interruptStep({ ...host.base(), cp: host.checkpoint(), vertex: pause.vertex, info: pause.info });
  return { kind: 'finish', step };
}
