/**
 * The durable form of a parallel step inside the checkpoint: which branches it has (vertex, fan-out item, the failure
 * an error route hands over) and, per branch, the result its own commit made durable. A re-execution after a crash
 * runs only the branches whose result is still null.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';
import type { VertexFailure } from '../flow/types.js';

/** One branch of a parallel step. */
export interface FrontierSlot {
  readonly vertex: string;
  /** A `forEach` instance: its item and position in the list. */
  readonly item?: JsonValue;
  readonly index?: number;
  /** An error-route handler: the failure it receives. */
  readonly failure?: VertexFailure;
}

/** What one branch left for the barrier. */
export interface SlotResult {
  /** Its partial state update (empty when its failure was routed). */
  readonly update: JsonObject;
  /** The attempt id of the try that produced it. */
  readonly attempt: number;
  /** Set when its tries were spent and its error route takes over after the barrier. */
  readonly routed?: VertexFailure;
}

export interface Frontier {
  /** The branches in their deterministic merge order. */
  readonly slots: readonly FrontierSlot[];
  /** Per slot: its committed result, or null while it has not committed. */
  readonly done: readonly (SlotResult | null)[];
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A stored failure; null when malformed. */
export function decodeFailure(value: unknown): VertexFailure | null {
  if (!isJsonObject(value)) return null;
  const { vertex, code, message } = value;
  if (typeof vertex !== 'string' || typeof code !== 'string' || typeof message !== 'string') return null;
  return { vertex, code, message };
}

function decodeSlot(value: unknown): FrontierSlot | null {
  if (!isJsonObject(value) || typeof value['vertex'] !== 'string') return null;
  const { vertex, item, index } = value;
  if (index !== undefined && !isIndex(index)) return null;
  const failure = value['failure'] === undefined ? undefined : decodeFailure(value['failure']);
  if (failure === null) return null;
  return {
    vertex,
    ...(item === undefined ? {} : { item }),
    ...(index === undefined ? {} : { index }),
    ...(failure === undefined ? {} : { failure }),
  };
}

function decodeResult(value: unknown): SlotResult | null | undefined {
  if (value === null) return null;
  if (!isJsonObject(value) || !isJsonObject(value['update']) || !isIndex(value['attempt'])) return undefined;
  const routed = value['routed'] === undefined ? undefined : decodeFailure(value['routed']);
  if (routed === null) return undefined;
  return { update: value['update'], attempt: value['attempt'], ...(routed === undefined ? {} : { routed }) };
}

/** A stored frontier; null when malformed. */
export function decodeFrontier(value: unknown): Frontier | null {
  if (!isJsonObject(value)) return null;
  const { slots, done } = value;
  if (!Array.isArray(slots) || !Array.isArray(done) || slots.length !== done.length || slots.length === 0) return null;
  const decodedSlots: FrontierSlot[] = [];
  for (const s of slots) {
    const slot = decodeSlot(s);
    if (slot === null) return null;
    decodedSlots.push(slot);
  }
  const decodedDone: (SlotResult | null)[] = [];
  for (const d of done) {
    const result = decodeResult(d);
    if (result === undefined) return null;
    decodedDone.push(result);
  }
  return { slots: decodedSlots, done: decodedDone };
}

/** The indices of the branches not yet committed, in slot order. */
export function pendingSlots(frontier: Frontier): number[] {
  const out: number[] = [];
  frontier.done.forEach((d, i) => {
    if (d === null) out.push(i);
  });
  return out;
}
