/**
 * Runs seen as durable handles (a handle id is the run id) and run resumes answered by a person through a form. Every
 * operation goes through the session-bound run tools themselves, so validation, isolation and errors are exactly the
 * tools': a handle of another session is `not_found` like its run, a handle's answer is validated as
 * `workflow_run_resume` validates a `resume`, and cancelling a handle is `workflow_run_cancel`.
 *
 * A handle's phase: `working` (pending or running, or interrupted without a form to ask), `awaiting_person` (interrupted
 * for a person with a flat resume schema: the form to ask comes with it, with the digest of the interruption it
 * answers), `completed`, `failed`, `cancelled`.
 */
import { readFlatAnswer, withDefaults } from '../core/index.js';
import type { FlatForm, JsonObject, RequestStateCall, RequestStateCodec } from '../core/index.js';
import { findRunTool } from './bundle.js';
import { refuse, RunToolErrorCode, succeed } from './result.js';
import type { RunToolResult } from './result.js';
import { resumeFormFor } from './resume-form.js';
import { RunToolName } from './types.js';
import type { RunTool, RunToolsCatalog } from './types.js';

export const HandlePhase = {
  Working: 'working',
  AwaitingPerson: 'awaiting_person',
  Completed: 'completed',
  Failed: 'failed',
  Cancelled: 'cancelled',
} as const;
export type HandlePhase = (typeof HandlePhase)[keyof typeof HandlePhase];

/** What a person answered to a form, with the request state of the round that asked (elicited resume only). */
export interface ResumeAnswer {
  readonly requestState?: unknown;
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: unknown;
}

export type ResumeRound =
  | { readonly kind: 'result'; readonly result: RunToolResult }
  | { readonly kind: 'ask'; readonly message: string; readonly form: FlatForm; readonly requestState: string };

export interface RunHandles {
  /** The handle of a run: `{run_id, phase, status_message?, progress?, run, form?}` (run = the safe run result). */
  view(runId: string): Promise<RunToolResult>;
  /**
   * Resumes an `awaiting_person` handle with the person's form answer. Given `interruption` (the `form.interruption`
   * of the view the answer was asked from), a run that has moved on to another interruption is `conflict`, never
   * resumed with an answer meant for an earlier one.
   */
  answer(runId: string, answer: ResumeAnswer, interruption?: string): Promise<RunToolResult>;
  /** Cancels as workflow_run_cancel does. */
  cancel(runId: string): Promise<RunToolResult>;
  /** One round of workflow_run_resume for a caller that can ask the person a form (see elicitedResume). */
  elicitedResume(call: RequestStateCall, answer: ResumeAnswer | undefined): Promise<ResumeRound>;
}

const PHASE_OF: Record<string, HandlePhase> = {
  pending: HandlePhase.Working,
  running: HandlePhase.Working,
  interrupted: HandlePhase.Working,
  completed: HandlePhase.Completed,
  failed: HandlePhase.Failed,
  cancelled: HandlePhase.Cancelled,
};

/**
 * The person declined the form: the run stays interrupted, and the refusal says exactly what resumes it (the fields
 * the form asked, never their values).
 */
function declined(runId: string, form: FlatForm): RunToolResult {
  const fields = Object.keys(form.properties).join(', ');
  return refuse(
    RunToolErrorCode.Declined,
    `the person declined to answer; the run stays interrupted. To resume it, agree the answer with the person and ` +
      `call workflow_run_resume again with run_id "${runId}" and a resume object of ${fields}`,
  );
}

export function createRunHandles(deps: {
  readonly tools: readonly RunTool[];
  readonly catalog: RunToolsCatalog;
  readonly codec: RequestStateCodec;
}): RunHandles {
  const tool = (name: RunToolName): RunTool => {
    const found = findRunTool(deps.tools, name);
    if (found === undefined) throw new Error(`run tool ${name} is missing`);
    return found;
  };
  const call = (name: RunToolName, args: JsonObject): Promise<RunToolResult> => tool(name).invoke(JSON.stringify(args));

  /** Completed and total vertices from the latest revision's activity (O(limit), never the whole history). */
  async function progress(run: JsonObject): Promise<JsonObject | undefined> {
    const revision = run['checkpoint_revision'] as number;
    const page = await call(RunToolName.RunHistory, {
      run_id: run['run_id'] as string,
      ...(revision > 0 ? { after_revision: revision - 1 } : {}),
      limit: 100,
    });
    if (!page.ok) return undefined;
    const entries = (page.value['entries'] as JsonObject[] | undefined) ?? [];
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i] as JsonObject;
      if (typeof e['completed_vertices'] === 'number' && typeof e['total_vertices'] === 'number') {
        return { completed: e['completed_vertices'], total: e['total_vertices'] };
      }
    }
    return undefined;
  }

  async function view(runId: string): Promise<RunToolResult> {
    const got = await call(RunToolName.RunGet, { run_id: runId });
    if (!got.ok) return got;
    const run = got.value;
    const form = resumeFormFor(deps.catalog, run);
    const out: JsonObject = {
      run_id: run['run_id'] as string,
      phase:
        form === undefined
          ? (PHASE_OF[run['run_status'] as string] ?? HandlePhase.Working)
          : HandlePhase.AwaitingPerson,
    };
    if (run['run_status'] === 'interrupted' && form === undefined) {
      out['status_message'] = 'interrupted; resume it with workflow_run_resume (its resume cannot be asked as a form)';
    } else if (typeof run['status_summary'] === 'string') {
      out['status_message'] = run['status_summary'];
    }
    const p = await progress(run);
    if (p !== undefined) out['progress'] = p;
    out['run'] = run;
    if (form !== undefined) {
      out['form'] = {
        message: form.message,
        schema: form.form as unknown as JsonObject,
        interruption: form.interruptionSha256,
      };
    }
    return succeed(out);
  }

  /** Resumes with an accepted answer to `form`, validated by workflow_run_resume itself. */
  async function resumeWith(runId: string, form: FlatForm, answer: ResumeAnswer): Promise<RunToolResult> {
    if (answer.action !== 'accept') return declined(runId, form);
    const read = readFlatAnswer(form, answer.content);
    if (!read.ok) return refuse(RunToolErrorCode.InvalidInput, `resume ${read.message}`);
    return call(RunToolName.RunResume, { run_id: runId, resume: read.value });
  }

  async function answer(runId: string, given: ResumeAnswer, interruption?: string): Promise<RunToolResult> {
    const got = await call(RunToolName.RunGet, { run_id: runId });
    if (!got.ok) return got;
    const form = resumeFormFor(deps.catalog, got.value);
    if (form === undefined) {
      return refuse(RunToolErrorCode.Conflict, 'the run is not waiting for an answer a form can give');
    }
    if (interruption !== undefined && interruption !== form.interruptionSha256) {
      return refuse(RunToolErrorCode.Conflict, 'the run is waiting at another interruption than the one answered');
    }
    return resumeWith(runId, form.form, given);
  }

  /**
   * Round one: a run waiting for a person with a flat resume schema is asked as a form (the proposed `resume` values
   * prefill it) with a request state bound to this call; anything else resumes as workflow_run_resume does. Round two
   * verifies the request state (throws RequestStateError), checks the run still waits at the same interruption (else
   * asks afresh), and resumes with the person's answer. A form the host cancelled (dismissed, or a host that cannot
   * show forms, as `claude -p`) is no answer at all: the call goes on as workflow_run_resume with its own `resume`,
   * validated as always. A declined form is the person's refusal: the run stays interrupted (`declined`, saying what
   * resumes it), whatever the call proposed.
   */
  async function elicitedResume(c: RequestStateCall, given: ResumeAnswer | undefined): Promise<ResumeRound> {
    const verified = given === undefined ? undefined : deps.codec.verify(given.requestState, c);
    const runId = c.arguments['run_id'];
    const plain = async (): Promise<ResumeRound> => ({
      kind: 'result',
      result: await call(RunToolName.RunResume, c.arguments),
    });
    if (typeof runId !== 'string') return plain();
    const got = await call(RunToolName.RunGet, { run_id: runId });
    if (!got.ok) return { kind: 'result', result: got };
    const form = resumeFormFor(deps.catalog, got.value);
    if (form === undefined) return plain();
    const proposed = c.arguments['resume'];
    const prefilled =
      typeof proposed === 'object' && proposed !== null && !Array.isArray(proposed)
        ? withDefaults(form.form, proposed)
        : form.form;
    if (verified === undefined || given === undefined || verified.pending.sha256 !== form.interruptionSha256) {
      return {
        kind: 'ask',
        message: form.message,
        form: prefilled,
        requestState: deps.codec.issue(c, { key: 'resume', sha256: form.interruptionSha256 }),
      };
    }
    if (given.action === 'cancel') return plain();
    return { kind: 'result', result: await resumeWith(runId, form.form, given) };
  }

  return Object.freeze({
    view,
    answer,
    cancel: (runId: string) => call(RunToolName.RunCancel, { run_id: runId }),
    elicitedResume,
  });
}
