/**
 * Start: the acknowledgement boundary. The seed (checkpoint revision 0 + run_started + status running) is written on
 * the caller's path, so the caller returns exactly when it is durable; execution is then queued to the worker pool.
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { loadInput, pinnedDefinition } from '../executor/run-loader.js';
import { freezeState } from '../executor/state-update.js';
import { failStep, seedStep } from '../executor/steps.js';
import type { FlowDefinition } from '../flow/catalog.js';
import { RunStatus, StoreConflictError, type RunRecord } from '../store/types.js';
import { runConflict, runNotFound, unknownDefinition } from './errors.js';
import type { EngineHandle } from './types.js';

const MAX_TRIES = 4;

/** A pending run that can never start is failed (revision 0, run_failed), so it does not linger as pending. */
async function failUnseeded(engine: EngineHandle, record: RunRecord, message: string): Promise<void> {
  const step = failStep({ record, now: engine.clock.now().toISOString(), totalVertices: 0, cp: undefined, message });
  try {
    await engine.store.commit(buildStepCommit(step));
  } catch (error) {
    if (!(error instanceof StoreConflictError)) throw error;
  }
}

async function initialState(engine: EngineHandle, record: RunRecord, def: FlowDefinition): Promise<JsonObject> {
  const input = await loadInput(engine.store, record);
  if (input === undefined) {
    await failUnseeded(engine, record, 'the run input is missing or unreadable');
    throw new RimthanError('invalid_input', 'the run input is missing or unreadable');
  }
  if (!def.validateInput(input).ok) {
    await failUnseeded(engine, record, 'the run input does not match the input schema');
    throw new RimthanError('invalid_input', 'the run input does not match the input schema');
  }
  let state: unknown;
  try {
    state = def.initialState(input);
  } catch {
    state = undefined;
  }
  const frozen = freezeState(state);
  if (!frozen.ok) {
    await failUnseeded(engine, record, 'the initial state could not be built from the input');
    throw new RimthanError('invalid_input', 'the initial state could not be built from the input');
  }
  return frozen.state;
}

/** Seeds a pending run of the session and queues its execution; see SessionController.start. */
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
    const flowState = await initialState(engine, record, def);
    const step = seedStep({
      record,
      now: engine.clock.now().toISOString(),
      totalVertices: def.graph.size,
      flowState,
      start: def.graph.start,
    });
    try {
      const seeded = await engine.store.commit(buildStepCommit(step));
      engine.announce(runId);
      return seeded;
    } catch (error) {
      if (!(error instanceof StoreConflictError)) throw error;
    }
  }
  throw runConflict('run changed while it was being started');
}
