/**
 * `workflow_run_start`: decode → start → safe result. The supervisor's session controller owns the start (resolve the
 * exact definition, validate the input once, parent check, idempotency replay, PrepareRun, input storage, the durable
 * seed: runs/supervisor/start-request.ts); this tool decodes its arguments, hands them over, and maps the typed
 * outcome to the contract's result. No success is reported for a run that did not start.
 */
import type { JsonObject } from '../core/index.js';
import { StartRefusal } from '../runs/index.js';
import type { StartOutcome } from '../runs/index.js';
import { refuse, RunToolErrorCode, succeed } from './result.js';
import type { RunToolResult } from './result.js';
import { safeRunResult } from './safe-result.js';
import { closedObject, nameSchema, safeRunProperties, SAFE_RUN_REQUIRED, uuidSchema } from './schemas.js';
import { parseUuid } from './strict-args.js';
import { RunToolName } from './types.js';
import type { ToolContext, ToolSpec } from './types.js';

/** The contract's answer to a refused start. */
function refusal(code: StartRefusal, message: string | undefined): RunToolResult {
  switch (code) {
    case StartRefusal.UnknownDefinition:
      return refuse(
        RunToolErrorCode.UnknownDefinition,
        'no definition with this exact name and version; see workflow_definition_list',
      );
    case StartRefusal.InvalidInput:
      return refuse(RunToolErrorCode.InvalidInput, message ?? 'input does not match the definition input schema');
    case StartRefusal.ParentNotFound:
      return refuse(RunToolErrorCode.NotFound, 'no parent run with this parent_run_id exists in this session');
    case StartRefusal.IdempotencyConflict:
      return refuse(
        RunToolErrorCode.Conflict,
        'idempotency_key was already used with a different definition, input or parent',
      );
    case StartRefusal.InvalidRunId:
      return refuse(RunToolErrorCode.Internal, 'the run ID generator returned a value that is not a nonzero UUID');
    case StartRefusal.PrepareFailed:
      return refuse(RunToolErrorCode.Internal, 'prepareRun failed; no run was created');
    case StartRefusal.PrepareRefused:
      return refuse(RunToolErrorCode.Internal, message ?? 'prepareRun was refused; no run was created');
  }
}

/** Maps the start's outcome to the tool result (a failed dependency names only the step it failed in). */
function answer(outcome: StartOutcome, ctx: ToolContext): RunToolResult {
  switch (outcome.kind) {
    case 'started':
      return succeed({ ...safeRunResult(outcome.run, ctx), idempotent: false });
    case 'replayed':
      return succeed({ ...safeRunResult(outcome.run, ctx), idempotent: true });
    case 'refused':
      return refusal(outcome.code, outcome.message);
    case 'failed':
      // A definition whose own input check throws is a defect of the flow, answered as any fault of a tool is.
      if (outcome.stage === 'definition') throw outcome.error;
      if (outcome.stage === 'create') return ctx.fault(outcome.error, 'creating the run');
      if (outcome.stage === 'seed') return ctx.fault(outcome.error, `starting run ${outcome.runId}`);
      return ctx.fault(outcome.error, 'starting the run');
  }
}

export const runStartSpec: ToolSpec = {
  name: RunToolName.RunStart,
  title: 'Start a workflow run',
  description:
    'Validates the input against the exact definition version, stores it canonically, starts a run and returns its safe status once the first checkpoint is durable.',
  inputSchema: closedObject(
    {
      definition_name: nameSchema('Exact definition name from workflow_definition_list.'),
      definition_version: nameSchema('Exact definition version.'),
      input: { type: 'object', description: 'One JSON object matching the definition input schema.' },
      parent_run_id: uuidSchema('Optional parent run in this session; omit rather than send null.'),
      idempotency_key: {
        type: 'string',
        minLength: 1,
        maxLength: 128,
        pattern: '^[!-~]+$',
        description: 'Optional key: a retry with the same key and request returns the same run.',
      },
    },
    ['definition_name', 'definition_version', 'input'],
  ),
  outputSchema: closedObject({ ...safeRunProperties(), idempotent: { type: 'boolean' } }, [
    ...SAFE_RUN_REQUIRED,
    'idempotent',
  ]),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  uuidFields: ['parent_run_id'],

  async handle(args, ctx) {
    let outcome: StartOutcome;
    try {
      outcome = await ctx.supervisor.startNew({
        definitionName: args['definition_name'] as string,
        definitionVersion: args['definition_version'] as string,
        input: args['input'] as JsonObject,
        parentRunId: (args['parent_run_id'] as string | undefined) ?? null,
        idempotencyKey: (args['idempotency_key'] as string | undefined) ?? null,
        mintRunId: () => parseUuid(ctx.newId()),
        now: () => ctx.now().toISOString(),
        prepareRun: ctx.prepareRun,
      });
    } catch (error) {
      return ctx.fault(error, 'starting the run');
    }
    return answer(outcome, ctx);
  },
};
