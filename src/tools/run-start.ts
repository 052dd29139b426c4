/**
 * `workflow_run_start`: resolve the exact definition → canonicalise → validate → parent check → idempotency → mint
 * the record and apply PrepareRun → store the input by digest → create the pending record → supervisor start → safe
 * result once the seed checkpoint is durable. Any failing step is an error; nothing after it runs, and no success is reported for a run that did not start.
 */
import type { JsonObject } from '../core/index.js';
import type { RunRecord } from '../runs/store/index.js';
import { RunStatus, StoreConflictError } from '../runs/store/index.js';
import { canonicalObject, firstIssue } from './canonical-object.js';
import { applyPrepareRun, buildNewRun } from './new-run.js';
import { refuse, RunToolErrorCode, succeed } from './result.js';
import type { RunToolResult } from './result.js';
import { safeRunResult } from './safe-result.js';
import { closedObject, nameSchema, safeRunProperties, SAFE_RUN_REQUIRED, uuidSchema } from './schemas.js';
import { parseUuid } from './strict-args.js';
import { RunToolName } from './types.js';
import type { ToolContext, ToolSpec } from './types.js';

interface StartRequest {
  readonly name: string;
  readonly version: string;
  readonly sha256: string;
  readonly parentRunId: string | null;
  readonly idempotencyKey: string;
}

/** A replay matches when definition, canonical input and parent are the same; then it is the same run. */
function sameRequest(run: RunRecord, req: StartRequest): boolean {
  return (
    run.definition_name === req.name &&
    run.definition_version === req.version &&
    run.input_sha256 === req.sha256 &&
    run.parent_run_id === req.parentRunId
  );
}

async function replay(ctx: ToolContext, req: StartRequest): Promise<RunToolResult | undefined> {
  const existing = await ctx.store.findByIdempotencyKey(ctx.sessionId, req.idempotencyKey);
  if (existing === undefined) return undefined;
  if (!sameRequest(existing, req)) {
    return refuse(
      RunToolErrorCode.Conflict,
      'idempotency_key was already used with a different definition, input or parent',
    );
  }
  // The first call may have failed before its seed: starting again seeds it (an already seeded run is returned as is).
  const run = existing.status === RunStatus.Pending ? await ctx.supervisor.start(existing.run_id) : existing;
  return succeed({ ...safeRunResult(run, ctx), idempotent: true });
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
    const name = args['definition_name'] as string;
    const version = args['definition_version'] as string;
    const definition = ctx.catalog.resolve(name, version);
    if (definition === undefined) {
      return refuse(
        RunToolErrorCode.UnknownDefinition,
        'no definition with this exact name and version; see workflow_definition_list',
      );
    }
    const input = canonicalObject(args['input'] as JsonObject);
    if (!input.ok) return refuse(RunToolErrorCode.InvalidInput, `input ${input.message}`);
    const check = definition.validateInput(input.value);
    if (!check.ok) {
      return refuse(
        RunToolErrorCode.InvalidInput,
        `input does not match the definition input schema (${firstIssue(check.issues)})`,
      );
    }
    const parentRunId = (args['parent_run_id'] as string | undefined) ?? null;
    const idempotencyKey = (args['idempotency_key'] as string | undefined) ?? null;
    try {
      if (parentRunId !== null && (await ctx.store.getRun(ctx.sessionId, parentRunId)) === undefined) {
        return refuse(RunToolErrorCode.NotFound, 'no parent run with this parent_run_id exists in this session');
      }
      const req: StartRequest = {
        name,
        version,
        sha256: input.sha256,
        parentRunId,
        idempotencyKey: idempotencyKey ?? '',
      };
      if (idempotencyKey !== null) {
        const replayed = await replay(ctx, req);
        if (replayed !== undefined) return replayed;
      }
      const runId = parseUuid(ctx.newId());
      if (runId === undefined)
        return refuse(RunToolErrorCode.Internal, 'the run ID generator returned a value that is not a nonzero UUID');
      const fresh = buildNewRun({
        sessionId: ctx.sessionId,
        runId,
        definitionName: name,
        definitionVersion: version,
        parentRunId,
        inputSha256: input.sha256,
        idempotencyKey,
        now: ctx.now().toISOString(),
      });
      const prepared = await applyPrepareRun(ctx.prepareRun, fresh).catch(() => undefined);
      if (prepared === undefined) return refuse(RunToolErrorCode.Internal, 'prepareRun failed; no run was created');
      if (!prepared.ok) return refuse(RunToolErrorCode.Internal, prepared.message);
      await ctx.store.putInput(input.sha256, input.text);
      const startNew = ctx.supervisor.startNew?.bind(ctx.supervisor);
      let started: RunRecord | undefined;
      try {
        // One durable write for record and seed when the supervisor offers it; else record, then seed.
        if (startNew !== undefined) started = await startNew(prepared.record, input.value);
        else await ctx.store.createRun(prepared.record);
      } catch (error) {
        // A concurrent start with the same key won the race: answer as its replay.
        const replayed =
          idempotencyKey !== null && error instanceof StoreConflictError ? await replay(ctx, req) : undefined;
        if (replayed !== undefined) return replayed;
        return startNew === undefined || error instanceof StoreConflictError
          ? ctx.fault(error, 'creating the run')
          : ctx.fault(error, `starting run ${runId}`);
      }
      if (started === undefined) {
        try {
          started = await ctx.supervisor.start(runId);
        } catch (error) {
          return ctx.fault(error, `starting run ${runId}`);
        }
      }
      return succeed({ ...safeRunResult(started, ctx), idempotent: false });
    } catch (error) {
      return ctx.fault(error, 'starting the run');
    }
  },
};
