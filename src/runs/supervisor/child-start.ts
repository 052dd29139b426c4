/**
 * How `ctx.runChild` starts a child run: a normal start in the parent's session (the one owner of starts, with its
 * input check and idempotency replay), with `parent_run_id` set and the key the wait session derived, so a parent that
 * crashed mid-vertex and runs the vertex again finds the child it already started.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../core/clock.js';
import type { ChildStart, StartChild } from '../executor/wait-session.js';
import type { SessionController } from './types.js';

export function childStarter(
  supervisor: { forSession(sessionId: string): SessionController },
  clock: Clock,
): StartChild {
  return async (request): Promise<ChildStart> => {
    const outcome = await supervisor.forSession(request.sessionId).startNew({
      definitionName: request.name,
      definitionVersion: request.version,
      input: request.input,
      parentRunId: request.parentRunId,
      idempotencyKey: request.idempotencyKey,
      mintRunId: () => randomUUID(),
      now: () => clock.now().toISOString(),
    });
    switch (outcome.kind) {
      case 'started':
      case 'replayed':
        return { ok: true, runId: outcome.run.run_id };
      case 'refused':
        return { ok: false, code: outcome.code, message: outcome.message ?? outcome.code };
      case 'failed':
        throw outcome.error instanceof Error ? outcome.error : new Error(`child start failed at ${outcome.stage}`);
    }
  };
}
