/**
 * `workflow_run_resume`: continue an interrupted run with a resume object validated against the resume schema of the
 * exact definition version the run started with.
 */
import { canonicalObject, firstIssue } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import type { RunRecord } from '../runs/store/index.js';
import { RunStatus } from '../runs/store/index.js';
import { refuse, runNotFound, RunToolErrorCode, succeed } from './result.js';
import { safeRunResult } from './safe-result.js';
import { closedObject, safeRunSchema, uuidSchema } from './schemas.js';
import { RunToolName } from './types.js';
import type { ToolSpec } from './types.js';

export const runResumeSpec: ToolSpec = {
  name: RunToolName.RunResume,
  title: 'Resume a workflow run',
  description:
    'Continues an interrupted run with a resume object that must match the resume schema of the definition version the run started with.',
  inputSchema: closedObject(
    {
      run_id: uuidSchema('The interrupted run.'),
      resume: { type: 'object', description: 'One JSON object matching the definition resume schema.' },
    },
    ['run_id', 'resume'],
  ),
  outputSchema: safeRunSchema(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  uuidFields: ['run_id'],

  async handle(args, ctx) {
    const runId = args['run_id'] as string;
    let record: RunRecord | undefined;
    try {
      record = await ctx.store.getRun(ctx.sessionId, runId);
    } catch (error) {
      return ctx.fault(error, 'reading the run');
    }
    if (record === undefined) return runNotFound();
    const definition = ctx.catalog.resolve(record.definition_name, record.definition_version);
    if (definition === undefined) {
      return refuse(
        RunToolErrorCode.UnknownDefinition,
        'the definition version this run started with is no longer in the catalog',
      );
    }
    if (definition.resumeSchema === undefined) {
      return refuse(
        RunToolErrorCode.ResumeNotSupported,
        'the definition of this run declares no resume schema; it cannot be resumed',
      );
    }
    if (record.status !== RunStatus.Interrupted) {
      return refuse(RunToolErrorCode.Conflict, `the run is ${record.status}; only an interrupted run can be resumed`);
    }
    const resume = canonicalObject(args['resume'] as JsonObject);
    if (!resume.ok) return refuse(RunToolErrorCode.InvalidInput, `resume ${resume.message}`);
    const check = definition.validateResume(resume.value);
    if (!check.ok) {
      return refuse(
        RunToolErrorCode.InvalidInput,
        `resume does not match the definition resume schema (${firstIssue(check.issues)})`,
      );
    }
    try {
      return succeed(safeRunResult(await ctx.supervisor.resume(runId, resume.value), ctx));
    } catch (error) {
      return ctx.fault(error, 'resuming the run');
    }
  },
};
