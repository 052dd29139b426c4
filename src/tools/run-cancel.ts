/**
 * `workflow_run_cancel`: request cancellation. An already cancelled run answers `idempotent: true` without touching
 * the engine; a completed or failed run is a conflict; a pending run is cancelled at once by the supervisor.
 */
import type { RunRecord } from '../runs/store/index.js';
import { RunStatus } from '../runs/store/index.js';
import { refuse, runNotFound, RunToolErrorCode, succeed } from './result.js';
import { closedObject, runStatusSchema, uuidSchema } from './schemas.js';
import { RunToolName } from './types.js';
import type { ToolSpec } from './types.js';

/** Longest reason, in UTF-8 bytes, checked before trimming. */
export const MAX_CANCEL_REASON_BYTES = 512;

export const runCancelSpec: ToolSpec = {
  name: RunToolName.RunCancel,
  title: 'Cancel a workflow run',
  description:
    'Requests cancellation of a pending, running or interrupted run; cancelling an already cancelled run is an idempotent success.',
  inputSchema: closedObject(
    {
      run_id: uuidSchema('The run to cancel.'),
      reason: {
        type: 'string',
        maxLength: MAX_CANCEL_REASON_BYTES,
        description: 'Optional reason, at most 512 bytes.',
      },
    },
    ['run_id'],
  ),
  outputSchema: closedObject(
    { run_id: uuidSchema('The run.'), run_status: runStatusSchema, idempotent: { type: 'boolean' } },
    ['run_id', 'run_status', 'idempotent'],
  ),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  uuidFields: ['run_id'],
  maxBytes: { reason: MAX_CANCEL_REASON_BYTES },

  async handle(args, ctx) {
    const runId = args['run_id'] as string;
    // Bounded (before trimming) by the decoder; the supervisor trims it and records "cancel requested" when blank.
    const reason = (args['reason'] as string | undefined) ?? '';
    let record: RunRecord | undefined;
    try {
      record = await ctx.store.getRun(ctx.sessionId, runId);
    } catch (error) {
      return ctx.fault(error, 'reading the run');
    }
    if (record === undefined) return runNotFound();
    if (record.status === RunStatus.Cancelled)
      return succeed({ run_id: runId, run_status: record.status, idempotent: true });
    if (record.status === RunStatus.Completed || record.status === RunStatus.Failed) {
      return refuse(RunToolErrorCode.Conflict, `the run is already ${record.status}; it cannot be cancelled`);
    }
    try {
      const outcome = await ctx.supervisor.cancel(runId, reason);
      return succeed({ run_id: runId, run_status: outcome.record.status, idempotent: outcome.idempotent });
    } catch (error) {
      return ctx.fault(error, 'cancelling the run');
    }
  },
};
