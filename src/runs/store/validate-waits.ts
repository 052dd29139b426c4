/**
 * Shape checks for durable waits (parks and events), applied by both stores before touching storage so they refuse
 * the same inputs alike. Messages name the field, never its value.
 */
import { canonicalJson } from '../../core/canonical-json.js';
import { isJsonObject } from '../../core/json.js';
import { StoreArgumentError } from './argument-error.js';
import { WAIT_FOREVER, type RunEvent, type RunPark } from './types.js';
import { STORE_LIMITS } from './validate.js';

/** Most bytes of an event payload (canonical JSON). */
export const MAX_EVENT_PAYLOAD_BYTES = 64 * 1024;

/**
 * SQL condition (both backends) on a child's row: it ended for its parent, finished or paused by a task that failed
 * after its retries (the interrupt column is the JSON the stores write, `reason` first).
 */
export const CHILD_ENDED = `(status IN ('completed', 'cancelled', 'failed')
  OR (status = 'interrupted' AND interrupt LIKE '{"reason":"task_failed"%'))`;

/** Event names: what a flow's `waitForEvent` names (a short word, never participant data). */
export const EVENT_NAME = /^[a-z][a-z0-9_.-]{0,63}$/;

function identifier(field: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) throw new StoreArgumentError(`${field} must not be empty`);
  if (Buffer.byteLength(value, 'utf8') > STORE_LIMITS.maxIdentifierBytes) {
    throw new StoreArgumentError(`${field} exceeds ${STORE_LIMITS.maxIdentifierBytes} bytes`);
  }
}

function eventName(value: unknown): void {
  if (typeof value !== 'string' || !EVENT_NAME.test(value)) {
    throw new StoreArgumentError('event name must match ^[a-z][a-z0-9_.-]{0,63}$');
  }
}

function position(value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > STORE_LIMITS.maxCounter) {
    throw new StoreArgumentError('event position must be an integer >= 0');
  }
}

export function checkPark(park: RunPark): void {
  identifier('run_id', park.run_id);
  identifier('worker_id', park.worker_id);
  const until = park.wait_until;
  if (typeof until !== 'number' || !Number.isSafeInteger(until) || until < 0 || until > WAIT_FOREVER) {
    throw new StoreArgumentError('wait_until must be an instant in ms since the epoch');
  }
  if (park.event !== undefined) {
    eventName(park.event.name);
    position(park.event.position);
  }
  if (park.child !== undefined) identifier('child', park.child);
}

/** Checks an event and returns its payload as canonical text. */
export function checkEvent(event: RunEvent): string {
  identifier('run_id', event.run_id);
  identifier('event_id', event.event_id);
  eventName(event.name);
  identifier('sent_at', event.sent_at);
  if (!isJsonObject(event.payload)) throw new StoreArgumentError('event payload must be a JSON object');
  const text = canonicalJson(event.payload);
  if (Buffer.byteLength(text, 'utf8') > MAX_EVENT_PAYLOAD_BYTES) {
    throw new StoreArgumentError(`event payload exceeds ${MAX_EVENT_PAYLOAD_BYTES} bytes`);
  }
  return text;
}

export function checkEventLookup(run_id: string, name: string, at: number): void {
  identifier('run_id', run_id);
  eventName(name);
  position(at);
}
