/** `workflow_run_get`: the safe result of one run of this session. */
import { runNotFound, succeed } from './result.js';
import { safeRunResult } from './safe-result.js';
import { closedObject, safeRunSchema, uuidSchema } from './schemas.js';
import { RunToolName } from './types.js';
import type { ToolSpec } from './types.js';

export const runGetSpec: ToolSpec = {
  name: RunToolName.RunGet,
  title: 'Get a workflow run',
  description:
    'Returns the safe metadata and lifecycle status of one run of this session, without its input or flow state.',
  inputSchema: closedObject({ run_id: uuidSchema('Run ID returned by workflow_run_start or workflow_run_list.') }, [
    'run_id',
  ]),
  outputSchema: safeRunSchema(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  uuidFields: ['run_id'],

  async handle(args, ctx) {
    try {
      const record = await ctx.store.getRun(ctx.sessionId, args['run_id'] as string);
      return record === undefined ? runNotFound() : succeed(safeRunResult(record, ctx));
    } catch (error) {
      return ctx.fault(error, 'reading the run');
    }
  },
};
