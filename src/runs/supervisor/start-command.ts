/**
 * Start: the acknowledgement boundary. The seed (checkpoint revision 0 + run_started + status running) is written on
 * the caller's path, so the caller returns exactly when it is durable; execution then starts on a free local slot or
 * is queued to the worker pool. No vertex runs before the seed is durable.
 */
import { RimthanError } from '../../core/errors.js';
import { canonicalJson } from '../../core/canonical-json.js';
import { sha256Hex } from '../../core/digest.js';
import type { JsonObject } from '../../core/json.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { loadInput, pinnedDefinition } from '../executor/run-loader.js';
import { freezeState } from '../executor/state-update.js';
import { failStep, seedStep } from '../executor/steps.js';
import type { FlowDefinition } from '../flow/catalog.js';
import { RunStatus, StoreConflictError, type NewRunRecord, type RunRecord } from '../store/types.js';
import { runConflict, runNotFound, unknownDefinition } from './errors.js';
import type { EngineHandle } from './types.js';

const MAX_TRIES = 4;

/** A pending run that can never start is failed (revision 0, run_failed), so it does not linger as pending. */
export async function failUnseeded(engine: EngineHandle, record: RunRecord, message: string): Promise<void> {
  const step = failStep({ record, now: engine.clock.now().toISOString(), totalVertices: 0, cp: undefined, message });
  try {
    await engine.store.commit(buildStepCommit(step));
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
  }
}

/** Why an input cannot seed a run, or the frozen initial state built from a copy of it. */
type Seedable = { ok: true; state: JsonObject } | { ok: false; message: string };

function seedableState(def: FlowDefinition, input: JsonObject): Seedable {
  if (!def.validateInput(input).ok) return { ok: false, message: 'the run input does not match the input schema' };
  let state: unknown;
  try {
    // A copy: the execution that starts here keeps `input` itself, exactly as stored, whatever initialState does.
    state = def.initialState(structuredClone(input));
  } catch {
    state = undefined;
  }
  const frozen = freezeState(state);
  return frozen.ok ? frozen : { ok: false, message: 'the initial state could not be built from the input' };
}

/** The validated input and the frozen initial state of a pending run (the run is failed when either is unusable). */
async function initialState(
  engine: EngineHandle,
  record: RunRecord,
  def: FlowDefinition,
): Promise<{ input: JsonObject; state: JsonObject }> {
  const input = await loadInput(engine.store, record);
  if (input === undefined) {
    await failUnseeded(engine, record, 'the run input is missing or unreadable');
    throw new RimthanError('invalid_input', 'the run input is missing or unreadable');
  }
  const seedable = seedableState(def, input);
  if (!seedable.ok) {
    await failUnseeded(engine, record, seedable.message);
    throw new RimthanError('invalid_input', seedable.message);
  }
  return { input, state: seedable.state };
}

/**
 * Creates a pending run and seeds it; see SessionController.startNew. Everything that can refuse the start is checked
 * before anything is written. The record and the seed commit (with this worker's lease when a slot is free) are
 * issued back to back: the store applies them in that order, and a grouping store puts both in one transaction.
 */
export async function startNewRun(
  engine: EngineHandle,
  sessionId: string,
  record: NewRunRecord,
  input: JsonObject,
): Promise<RunRecord> {
  engine.assertAccepting();
  if (record.session_id !== sessionId)
    throw new RimthanError('invalid_arguments', 'the run belongs to another session');
  if (record.status !== RunStatus.Pending || record.checkpoint_revision !== -1) {
    throw new RimthanError('invalid_arguments', 'a new run must be pending, with no checkpoint');
  }
  if (sha256Hex(canonicalJson(input)) !== record.input_sha256) {
    throw new RimthanError('invalid_arguments', 'input does not match the record input_sha256');
  }
  // The record as createRun will store it: revision 0, the compare-and-swap guard of the seed.
  const view: RunRecord = { ...record, created_seq: 0, record_revision: 0 };
  const def = pinnedDefinition(engine.catalog, view);
  if (def === undefined) throw unknownDefinition(view);
  const seedable = seedableState(def, input);
  if (!seedable.ok) throw new RimthanError('invalid_input', seedable.message);
  const step = seedStep({
    record: view,
    now: engine.clock.now().toISOString(),
    totalVertices: def.graph.size,
    flowState: seedable.state,
    start: def.graph.start,
  });
  const slot = engine.reserveSlot();
  const commit = buildStepCommit(step);
  const created = engine.store.createRun(record);
  const seeding = engine.store.commit(slot === undefined ? commit : { ...commit, lease: slot.lease });
  const [made, seed] = await Promise.allSettled([created, seeding]);
  if (made.status === 'rejected') {
    slot?.cancel();
    throw made.reason;
  }
  if (seed.status === 'rejected') {
    // Created but not seeded (the record changed in between): the ordinary start reads it and decides.
    slot?.cancel();
    return startRun(engine, sessionId, record.run_id);
  }
  const seeded = seed.value;
  if (slot === undefined) engine.announce(record.run_id);
  else slot.launch(seeded, { checkpoint: step.checkpoint, input });
  return seeded;
}

/**
 * Seeds a pending run of the session and queues its execution; see SessionController.start. When this worker has a
 * free execution slot, the seed commit also takes the run's lease for it (no separate claim write) and the execution
 * starts here as soon as the seed is durable; otherwise the seeded run waits for whichever worker claims it first.
 */
export async function startRun(engine: EngineHandle, sessionId: string, runId: string): Promise<RunRecord> {
  engine.assertAccepting();
  for (let i = 0; i < MAX_TRIES; i++) {
    const record = await engine.store.getRun(sessionId, runId);
    if (record === undefined) throw runNotFound();
    if (record.checkpoint_revision >= 0) return record;
    if (record.status !== RunStatus.Pending) throw runConflict(`run is ${record.status}`);
    const def = pinnedDefinition(engine.catalog, record);
    if (def === undefined) {
      await failUnseeded(engine, record, 'the flow definition is not registered');
      throw unknownDefinition(record);
    }
    const { input, state } = await initialState(engine, record, def);
    const step = seedStep({
      record,
      now: engine.clock.now().toISOString(),
      totalVertices: def.graph.size,
      flowState: state,
      start: def.graph.start,
    });
    const slot = engine.reserveSlot();
    const commit = buildStepCommit(step);
    let seeded: RunRecord;
    try {
      seeded = await engine.store.commit(slot === undefined ? commit : { ...commit, lease: slot.lease });
    } catch (error) {
      slot?.cancel();
      if (!(error instanceof StoreConflictError)) throw error;
      continue;
    }
    if (slot === undefined) engine.announce(runId);
    else slot.launch(seeded, { checkpoint: step.checkpoint, input });
    return seeded;
  }
  throw runConflict('run changed while it was being started');
}
