/**
 * What a waiting vertex has waited for so far, kept in the checkpoint (`waits`) while the run is parked. A vertex that
 * waits runs again from its start when the run wakes; each wait call, in call order, finds its record here and
 * answers from it (a timer keeps its deadline, an event its position, a child its run id), so the vertex takes the
 * same path and no child is started twice.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';

export type WaitRecord =
  /** A timer: done once the clock passes `until` (ms since the epoch). */
  | { readonly kind: 'sleep'; readonly until: number }
  /**
   * An event: the run's `position`-th event of `name` (arrival order); `until` is the timeout's deadline (null: none);
   * `outcome` once it resolved in an earlier park of this visit.
   */
  | {
      readonly kind: 'event';
      readonly name: string;
      readonly position: number;
      readonly until: number | null;
      readonly outcome?: 'received' | 'timed_out';
    }
  /** A child run this vertex started (its run id). */
  | { readonly kind: 'child'; readonly run_id: string };

export interface WaitMemo {
  /** The vertex these waits belong to (a memo of another vertex is ignored). */
  readonly vertex: string;
  readonly waits: readonly WaitRecord[];
}

/** Events of each name consumed by completed vertices: the next event wait on a name starts at this position. */
export type EventCursor = Readonly<Record<string, number>>;

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function decodeRecord(value: JsonValue): WaitRecord | undefined {
  if (!isJsonObject(value)) return undefined;
  const { kind } = value;
  if (kind === 'sleep' && isCount(value['until'])) return { kind, until: value['until'] };
  if (kind === 'child' && typeof value['run_id'] === 'string') return { kind, run_id: value['run_id'] };
  if (kind !== 'event') return undefined;
  const { name, position, until, outcome } = value;
  if (typeof name !== 'string' || !isCount(position) || (until !== null && !isCount(until))) return undefined;
  if (outcome !== undefined && outcome !== 'received' && outcome !== 'timed_out') return undefined;
  return { kind, name, position, until, ...(outcome === undefined ? {} : { outcome }) };
}

/** Reads a stored memo back; null when it is malformed (the checkpoint is then unreadable). */
export function decodeWaitMemo(value: JsonValue): WaitMemo | null {
  if (!isJsonObject(value) || typeof value['vertex'] !== 'string' || !Array.isArray(value['waits'])) return null;
  const waits: WaitRecord[] = [];
  for (const item of value['waits']) {
    const record = decodeRecord(item);
    if (record === undefined) return null;
    waits.push(record);
  }
  return { vertex: value['vertex'], waits };
}

/** Reads a stored event cursor back; null when it is malformed. */
export function decodeEventCursor(value: JsonValue): EventCursor | null {
  if (!isJsonObject(value)) return null;
  const cursor: Record<string, number> = {};
  for (const [name, at] of Object.entries(value)) {
    if (!isCount(at)) return null;
    cursor[name] = at;
  }
  return cursor;
}

export function encodeWaitMemo(memo: WaitMemo): JsonObject {
  return { vertex: memo.vertex, waits: memo.waits.map((w) => ({ ...w })) };
}

/** The cursor after a vertex consumed the events its memo received. */
export function advanceCursor(cursor: EventCursor | undefined, memo: WaitMemo): EventCursor | undefined {
  const next: Record<string, number> = { ...cursor };
  let moved = false;
  for (const w of memo.waits) {
    if (w.kind === 'event' && w.outcome === 'received') {
      next[w.name] = Math.max(next[w.name] ?? 0, w.position + 1);
      moved = true;
    }
  }
  return moved ? next : cursor;
}

/** A short line for history: what the vertex waited for (timers, event names, child run ids; never payloads). */
export function describeWaits(memo: WaitMemo): string | undefined {
  const parts = memo.waits.map((w) => {
    switch (w.kind) {
      case 'sleep':
        return `timer until ${new Date(w.until).toISOString()}`;
      case 'event':
        return w.outcome === 'timed_out' ? `event ${w.name} timed out` : `event ${w.name}`;
      case 'child':
        return `child run ${w.run_id}`;
    }
  });
  return parts.length === 0 ? undefined : `waited for ${parts.join(', ')}`;
}
