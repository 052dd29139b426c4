/**
 * Start: the acknowledgement boundary. The seed (checkpoint revision 0 + run_started) is written on the caller's path,
 * so the caller returns exactly when it is durable; execution then starts on a free local slot (status `running`) or
 * the run waits, durably `pending`, for the first worker with a free slot to claim it (admission control: a worker
 * never holds more runs in memory than its `concurrency`). No vertex runs before the seed is durable.
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { loadInput, pinnedDefinition } from '../executor/run-loader.js';
import { freezeState } from '../executor/state-update.js';
import { failStep, seedStep } from '../executor/steps.js';
import type { FlowDefinition } from '../flow/catalog.js';
import {
  RunStatus,
  StoreConflictError,
  type ConcurrencySlot,
  type NewRunRecord,
  type RunRecord,
} from '../store/types.js';
import { runConflict, runNotFound, unknownDefinition } from './errors.js';
import { createLimitedRun, seedLimitedRun, slotOf, slotRefusal } from './concurrency.js';
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
  if (!def.validateInput(input).ok) {
    await failUnseeded(engine, record, 'the run input does not match the input schema');
    throw new RimthanError('invalid_input', 'the run input does not match the input schema');
  }
  const state = initialStateOf(def, input);
  if (state === undefined) {
    await failUnseeded(engine, record, 'the initial state could not be built from the input');
    throw new RimthanError('invalid_input', 'the initial state could not be built from the input');
  }
  return { input, state };
}

/**
 * The frozen initial state of a validated input, or undefined when the definition cannot build one. The definition
 * gets a copy: the execution keeps `input` itself, exactly as stored, whatever initialState does.
 */
export function initialStateOf(
  def: { initialState(input: JsonObject): unknown },
  input: JsonObject,
): JsonObject | undefined {
  let state: unknown;
  try {
    state = def.initialState(structuredClone(input));
  } catch {
    state = undefined;
  }
  const frozen = freezeState(state);
  return frozen.ok ? frozen.state : undefined;
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
    if (record.checkpoint_revision >= 0) return record; // seeded already (a retried start, an idempotency key)
    if (record.status !== RunStatus.Pending) throw runConflict(`run is ${record.status}`);
    const def = pinnedDefinition(engine.catalog, record);
    if (def === undefined) {
      await failUnseeded(engine, record, 'the flow definition is not registered');
      throw unknownDefinition(record);
    }
    const { input, state } = await initialState(engine, record, def);
    if (def.concurrency !== undefined) {
      const limited = slotOf(def, input);
      if (!limited.ok) {
        await failUnseeded(engine, record, limited.message);
        throw slotRefusal(limited.message);
      }
      try {
        if (limited.slot !== undefined) return await seedLimitedRun(engine, record, def, state, limited.slot);
      } catch (error) {
        if (!(error instanceof StoreConflictError)) throw error;
        continue;
      }
    }
    const slot = engine.reserveSlot();
    const step = seedStep({
      record,
      now: engine.clock.now().toISOString(),
      totalVertices: def.graph.size,
      flowState: state,
      start: def.graph.start,
      queued: slot === undefined,
    });
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

/**
 * Creates a pending run and seeds it in ONE durable write (RunLedger.createRun with its seed): the start costs one
 * synced commit instead of two, and a refusal (a duplicate run id or idempotency key) writes neither. `def` is the
 * resolved definition, `input` the validated canonical input and `state` its frozen initial state (the caller,
 * start-request.ts, has checked all three once).
 */
export async function createSeededRun(
  engine: EngineHandle,
  record: NewRunRecord,
  def: FlowDefinition,
  input: JsonObject,
  state: JsonObject,
  limited?: ConcurrencySlot,
): Promise<RunRecord> {
  // A run of a limited flow never takes a local slot: the store admits it (claimable) or keeps it waiting.
  if (limited !== undefined) return createLimitedRun(engine, record, def, state, limited);
  const slot = engine.reserveSlot();
  const step = seedStep({
    record: { ...record, created_seq: 0, record_revision: 0 },
    now: engine.clock.now().toISOString(),
    totalVertices: def.graph.size,
    flowState: state,
    start: def.graph.start,
    queued: slot === undefined,
  });
  const commit = buildStepCommit(step);
  let seeded: RunRecord;
  try {
    seeded = await engine.store.createRun(record, slot === undefined ? commit : { ...commit, lease: slot.lease });
  } catch (error) {
    slot?.cancel();
    throw error;
  }
  if (slot === undefined) engine.announce(record.run_id);
  else slot.launch(seeded, { checkpoint: step.checkpoint, input });
  return seeded;
}
