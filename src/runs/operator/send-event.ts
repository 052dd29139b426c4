/**
 * Sends an event to a run (`sendEvent`, `rimthan runs send-event`): the store keeps it once per event id and wakes the
 * run if it is parked in `ctx.waitForEvent` for that name; an event sent before the run waits is kept until it does.
 * This is not `workflow_run_resume` (the answer to an interrupt): an event never changes a run's status by itself.
 */
import type { Clock } from '../../core/clock.js';
import type { JsonObject } from '../../core/json.js';
import type { RunLedger, RunQueue, RunWaits } from '../store/types.js';
import { runConflict, runNotFound } from '../supervisor/errors.js';

export interface SendEventRequest {
  readonly runId: string;
  /** When set, the run must belong to this session (another session's run is `not_found`). */
  readonly sessionId?: string;
  /** The name the flow waits for (`ctx.waitForEvent(name)`): ^[a-z][a-z0-9_.-]{0,63}$. */
  readonly name: string;
  /** The sender's id for this event: sending the same id to the same run again delivers nothing more. */
  readonly eventId: string;
  /** What `waitForEvent` answers (at most 64 KiB of JSON; default {}). */
  readonly payload?: JsonObject;
}

/** `delivered` the first time an event id reaches the run; `duplicate` when that id was delivered before. */
export type SendEventResult = 'delivered' | 'duplicate';

/** Delivers an event; errors: not_found, conflict (the run has ended), invalid_arguments. */
export async function sendEvent(
  store: RunLedger & RunQueue & RunWaits,
  clock: Clock,
  request: SendEventRequest,
): Promise<SendEventResult> {
  if (request.sessionId !== undefined && (await store.getRun(request.sessionId, request.runId)) === undefined) {
    throw runNotFound();
  }
  const outcome = await store.sendEvent({
    run_id: request.runId,
    event_id: request.eventId,
    name: request.name,
    payload: request.payload ?? {},
    sent_at: clock.now().toISOString(),
  });
  switch (outcome) {
    case 'not_found':
      throw runNotFound();
    case 'finished':
      throw runConflict('run has ended; it takes no events');
    case 'duplicate':
      return 'duplicate';
    case 'delivered':
      await store.notify(request.runId);
      return 'delivered';
  }
}
