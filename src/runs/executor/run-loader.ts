/**
 * Loads what an execution or a command needs besides the record: the pinned definition, the latest engine checkpoint
 * and the run input. Each returns a typed miss instead of throwing, so callers decide between failing the run and
 * refusing the request.
 */
import type { JsonObject } from '../../core/json.js';
import { isJsonObject } from '../../core/json.js';
import { parseStrictJson } from '../../core/strict-json.js';
import type { FlowCatalog, FlowDefinition } from '../flow/catalog.js';
import type { RunLedger, RunRecord } from '../store/types.js';
import { decodeCheckpoint, type FlowCheckpoint } from './checkpoint-state.js';

/** Input documents are at most 256 KiB, nested at most 32 deep. */
export const INPUT_LIMITS = { maxBytes: 256 * 1024, maxDepth: 32 } as const;

/** The definition the run pinned at start (exact name@version). */
export function pinnedDefinition(catalog: FlowCatalog, record: RunRecord): FlowDefinition | undefined {
  return catalog.resolve(record.definition_name, record.definition_version);
}

/** A run record with its latest checkpoint, read so that both belong to the same revision. */
export interface RunView {
  readonly record: RunRecord;
  /** Undefined before the seed. */
  readonly checkpoint: FlowCheckpoint | undefined;
  /** True when a checkpoint exists but is not a readable engine checkpoint. */
  readonly corrupt: boolean;
}

/**
 * Reads record and latest checkpoint consistently (re-reading when a commit landed in between). Undefined when the run
 * does not exist. Session scoping is the caller's business: pass the record lookup to use.
 */
export async function loadRunView(
  store: RunLedger,
  getRecord: () => Promise<RunRecord | undefined>,
): Promise<RunView | undefined> {
  for (let i = 0; ; i++) {
    const record = await getRecord();
    if (record === undefined) return undefined;
    if (record.checkpoint_revision < 0) return { record, checkpoint: undefined, corrupt: false };
    const cp = await store.latestCheckpoint(record.run_id);
    if (cp !== undefined && cp.revision > record.checkpoint_revision && i < 8) continue;
    if (cp === undefined || cp.revision !== record.checkpoint_revision)
      return { record, checkpoint: undefined, corrupt: true };
    const checkpoint = decodeCheckpoint(cp.state);
    return { record, checkpoint, corrupt: checkpoint === undefined };
  }
}

/** The run input as a JSON object, or undefined when it is missing or unreadable. */
export async function loadInput(store: RunLedger, record: RunRecord): Promise<JsonObject | undefined> {
  const text = await store.getInput(record.input_sha256);
  if (text === undefined) return undefined;
  const parsed = parseStrictJson(text, INPUT_LIMITS);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}
