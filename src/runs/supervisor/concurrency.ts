/**
 * Concurrency limits on the supervisor's side (FlowSpec.concurrency; the store's RunConcurrency role decides slots).
 * A run of a limited flow is always seeded queued (never on a local slot): the store admits it, claimable at once, or
 * keeps it `pending`, waiting. When a limited run ends, the worker that wrote its end promotes the oldest waiting runs
 * of its key; a periodic sweep promotes whatever a crashed worker left behind. Flows without a limit never reach this
 * file: their starts, claims and commits are exactly what they were.
 */
import { RimthanError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import { buildStepCommit } from '../executor/commit-builder.js';
import { pinnedDefinition } from '../executor/run-loader.js';
import { seedStep } from '../executor/steps.js';
import type { FlowDefinition } from '../flow/catalog.js';
import type { ConcurrencySlot, NewRunRecord, RunRecord } from '../store/types.js';
import type { EngineHandle } from './types.js';

/** Keys a sweep promotes for at most (each is one small transaction). */
export const SLOT_SWEEP_KEYS = 100;

/** The slot a run of `def` asks for: undefined for an unlimited flow; a refusal when the key cannot be computed. */
export function slotOf(
  def: FlowDefinition,
  input: JsonObject,
):
  { readonly ok: true; readonly slot: ConcurrencySlot | undefined } | { readonly ok: false; readonly message: string } {
  const limits = def.concurrency;
  if (limits === undefined) return { ok: true, slot: undefined };
  const key = limits.keyOf(input);
  return key.ok ? { ok: true, slot: { key: key.key, limit: limits.limit } } : key;
}

/** The refusal a start gets when the run's key cannot be computed (the message never repeats the key or input). */
export function slotRefusal(message: string): RimthanError {
  return new RimthanError('invalid_input', message);
}

function queuedSeed(engine: EngineHandle, record: RunRecord, def: FlowDefinition, state: JsonObject) {
  const step = seedStep({
    record,
    now: engine.clock.now().toISOString(),
    totalVertices: def.graph.size,
    flowState: state,
    start: def.graph.start,
    queued: true,
  });
  return buildStepCommit(step);
}

/** Creates and seeds a run of a limited flow in one write; admitted runs are announced to the workers. */
export async function createLimitedRun(
  engine: EngineHandle,
  record: NewRunRecord,
  def: FlowDefinition,
  state: JsonObject,
  slot: ConcurrencySlot,
): Promise<RunRecord> {
  const seed = queuedSeed(engine, { ...record, created_seq: 0, record_revision: 0 }, def, state);
  const seeded = await engine.store.createLimitedRun(record, seed, slot);
  engine.announce(seeded.run_id);
  return seeded;
}

/** Seeds an existing unseeded run of a limited flow (a retried start); conflicts propagate to the caller's retry. */
export async function seedLimitedRun(
  engine: EngineHandle,
  record: RunRecord,
  def: FlowDefinition,
  state: JsonObject,
  slot: ConcurrencySlot,
): Promise<RunRecord> {
  const seeded = await engine.store.seedLimitedRun(queuedSeed(engine, record, def, state), slot);
  engine.announce(seeded.run_id);
  return seeded;
}

/**
 * After a run of a limited flow ended (terminal): admits the oldest waiting runs of its key into the freed slots and
 * tells the workers. Nothing for a run of an unlimited flow (no store call at all).
 */
export async function promoteAfterEnd(engine: EngineHandle, record: RunRecord): Promise<void> {
  if (pinnedDefinition(engine.catalog, record)?.concurrency === undefined) return;
  for (const id of await engine.store.promoteAfter(record.run_id)) engine.announce(id);
}

/** The sweep: promotes waiting runs of any key (ends a crashed worker never followed up); only when a limit exists. */
export async function sweepSlots(engine: EngineHandle): Promise<number> {
  if (!engine.catalog.list().some((def) => def.concurrency !== undefined)) return 0;
  const admitted = await engine.store.promoteWaiting(SLOT_SWEEP_KEYS);
  for (const id of admitted) engine.announce(id);
  return admitted.length;
}
