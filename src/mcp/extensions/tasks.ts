/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) for the runs profile: a durable run seen as a
 * task whose id is the run's handle (its run id).
 *
 * - `workflow_run_start` called by a client that declared the extension on the request answers with the run as a task
 *   (`resultType: "task"`, once the run's first checkpoint is durable, so `tasks/get` resolves at once); a refused
 *   start is the plain tool error. Every other client gets the plain tool, unchanged.
 * - `tasks/get` reports the run's phase as the task's status, and its progress (completed and total vertices) in the
 *   status message and under `_meta["dev.rimthan/progress"]`. A run waiting for a person with a flat resume schema is
 *   `input_required` and asks its form under a key naming that interruption (`resume-r<checkpoint revision>`, so a key
 *   is never reused within the task's life). A run waiting for a resume no form can ask (its resume schema is not flat)
 *   is `input_required` too, asking nothing (`inputRequests: {}`): its status message says to call
 *   `workflow_run_resume` (or `tasks/cancel`), so a requester is never left polling a `working` task that cannot move;
 *   a completed run carries `workflow_run_start`'s result shape (the run, with
 *   `idempotent: false`: a task's result describes the run, never a replayed start); a failed run is `completed` with
 *   `isError: true` (the revision keeps `failed` for JSON-RPC errors); a cancelled run is `cancelled`.
 * - `tasks/update` answers the outstanding form (validated as `workflow_run_resume` validates a `resume`), bound to the
 *   interruption that form asked (a run that moved on is not resumed with it). Responses under any other key are
 *   ignored, as the revision asks; a malformed response to the outstanding key, or no response at all, is -32602. A
 *   declined or dismissed form cancels the task: the run cannot go on without that answer, and a key is never asked
 *   again once answered. (Within one request the run is read, then resumed; the tool contract has no expected
 *   revision, so a second resume landing in between is not excluded.)
 * - `tasks/cancel` answers exactly as `workflow_run_cancel` does: a waiting or working run is cancelled, a cancelled one
 *   is acknowledged again (idempotent), and a completed or failed one is refused (`-32602` with `data.code`
 *   `conflict` and the tool's message, as the revision asks for a task already in a terminal status).
 * - `ttlMs` is {@link TASK_TTL_MS}: a task answers for at least that long after its creation (the run store keeps
 *   runs until an operator removes them). Status notifications (`subscriptions/listen`) are not served: a requester
 *   polls at `pollIntervalMs`.
 *
 * Everything goes through the session's RunHandles, so isolation is the session's: another principal's task id is
 * "task not found" exactly like an unknown one. A request whose client did not declare the extension is refused with
 * -32021 (missing required client capability) before anything else is checked, 2025-era requests included (their
 * Tasks are another protocol).
 */
import { inputResponse } from '@modelcontextprotocol/server';
import type { ServerContext } from '@modelcontextprotocol/server';
import { canonicalJson, isJsonObject } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import type { RunHandles, RunToolResult } from '../../tools/index.js';
import { ANY_PARAMS_OBJECT, boundedString, closedParams } from '../server/closed-params.js';
import type { ServerExtension } from '../server/profile.js';
import { declaresExtension, guardedHandler } from '../server/server.js';
import type { FaultReporter, ToolAnswer, ToolHandler } from '../server/tool-call.js';
import { JsonRpcFault, RpcCode } from '../server/wire.js';

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
/** The `_meta` key of a task's progress: completed and total vertices of the run's latest revision. */
export const TASK_PROGRESS_META_KEY = 'dev.rimthan/progress';
/** How often a requester should poll a working run (milliseconds). */
export const TASK_POLL_INTERVAL_MS = 2000;
/** How long a task answers after its creation (30 days, milliseconds): the least a requester may count on. */
export const TASK_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_TASK_ID_CHARS = 64;

const STATUS_OF_PHASE: Readonly<Record<string, string>> = {
  working: 'working',
  awaiting_person: 'input_required',
  completed: 'completed',
  failed: 'completed',
  cancelled: 'cancelled',
};

/** The `inputRequests` key of the form asking a run's resume at `checkpointRevision` (unique within a task). */
export function resumeInputKey(checkpointRevision: number): string {
  return `resume-r${checkpointRevision}`;
}

/**
 * Every tasks/* request's params: exactly a bounded `taskId` (and `_meta`). `inputResponses` never reaches this
 * check: the SDK lifts it into `ctx.mcpReq` first (see `update`). The SDK is given ANY_PARAMS_OBJECT and the handler
 * checks these itself, after the capability, so a client without the extension gets -32021 whatever it sent.
 */
const TASK_PARAMS = closedParams({ taskId: boundedString(MAX_TASK_ID_CHARS) });
const MAX_INPUT_RESPONSES = 16;

function notAnElicitResult(key: string): JsonRpcFault {
  return new JsonRpcFault(
    RpcCode.InvalidParams,
    `inputResponses["${key}"] must answer the form (an elicitation result)`,
  );
}

/** Run-tool refusals become JSON-RPC errors; not_found is the task's not-found (same for another principal's id). */
function faultOf(result: Extract<RunToolResult, { ok: false }>): JsonRpcFault {
  if (result.error.code === 'not_found') return new JsonRpcFault(RpcCode.InvalidParams, 'task not found');
  return new JsonRpcFault(RpcCode.InvalidParams, result.error.message, { code: result.error.code });
}

function missingCapability(): JsonRpcFault {
  return new JsonRpcFault(RpcCode.MissingRequiredClientCapability, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
  });
}

/** True when the handle's run waits for a resume no form can ask (interrupted, yet not `awaiting_person`). */
function waitsForPlainResume(handle: JsonObject): boolean {
  const run = (handle['run'] ?? {}) as JsonObject;
  return handle['phase'] === 'working' && run['run_status'] === 'interrupted';
}

/** What a requester should do about a run waiting for a resume no form can ask (names no participant data). */
function plainResumeMessage(runId: string): string {
  return (
    `waiting for a resume that cannot be asked as a form: call workflow_run_resume with run_id "${runId}" and a ` +
    `resume object (its definition's resume schema), or tasks/cancel to cancel the run`
  );
}

/** The Task fields of a handle (`RunHandles.view` value): what CreateTaskResult carries, and every DetailedTask too. */
function taskFields(handle: JsonObject): JsonObject {
  const run = (handle['run'] ?? {}) as JsonObject;
  const plainResume = waitsForPlainResume(handle);
  const status = plainResume ? 'input_required' : (STATUS_OF_PHASE[handle['phase'] as string] ?? 'working');
  const createdAt = typeof run['created_at'] === 'string' ? run['created_at'] : new Date(0).toISOString();
  const task: JsonObject = {
    taskId: handle['run_id'] as string,
    status,
    createdAt,
    lastUpdatedAt: typeof run['updated_at'] === 'string' ? run['updated_at'] : createdAt,
    ttlMs: TASK_TTL_MS,
  };
  const progress = handle['progress'] as { completed: number; total: number } | undefined;
  const steps = progress === undefined ? undefined : `${progress.completed} of ${progress.total} steps done`;
  const message = plainResume
    ? plainResumeMessage(handle['run_id'] as string)
    : typeof handle['status_message'] === 'string'
      ? handle['status_message']
      : undefined;
  if (message !== undefined || steps !== undefined) {
    task['statusMessage'] = [message, steps].filter((part) => part !== undefined).join('; ');
  }
  if (progress !== undefined) task['_meta'] = { [TASK_PROGRESS_META_KEY]: progress };
  if (status === 'working' || status === 'input_required') task['pollIntervalMs'] = TASK_POLL_INTERVAL_MS;
  return task;
}

/** The key of the form a handle asks, or undefined when it asks none. */
function outstandingKey(handle: JsonObject): string | undefined {
  if (handle['phase'] !== 'awaiting_person') return undefined;
  const run = handle['run'] as JsonObject;
  return resumeInputKey(run['checkpoint_revision'] as number);
}

/** The DetailedTask view of a handle (`RunHandles.view` value), as `tasks/get` answers it. */
export function taskOfHandle(handle: JsonObject): JsonObject {
  const task = taskFields(handle);
  const run = (handle['run'] ?? {}) as JsonObject;
  const key = outstandingKey(handle);
  if (key !== undefined) {
    const form = handle['form'] as JsonObject;
    task['inputRequests'] = {
      [key]: {
        method: 'elicitation/create',
        params: { mode: 'form', message: form['message'] as string, requestedSchema: form['schema'] as JsonObject },
      },
    };
  } else if (task['status'] === 'input_required') {
    task['inputRequests'] = {}; // nothing a form can ask: the status message says what resumes the run
  }
  if (task['status'] === 'completed') {
    // workflow_run_start's result shape; a failed run is a tool-level error, not a JSON-RPC one.
    const value: JsonObject = { ...run, idempotent: false };
    task['result'] = {
      resultType: 'complete', // the task's result is a whole 2026-07-28 CallToolResult
      content: [{ type: 'text', text: canonicalJson(value) }],
      structuredContent: value,
      isError: handle['phase'] === 'failed',
    };
  }
  return task;
}

/**
 * `workflow_run_start` for a client that declared the extension: the plain start, then the started run as a task.
 * A refused start (or a run that cannot be viewed) stays the plain tool result.
 */
export function taskBackedStart(handles: RunHandles, start: ToolHandler): (args: JsonObject) => Promise<ToolAnswer> {
  return async (args) => {
    const outcome = await start(args);
    if (!outcome.ok || !isJsonObject(outcome.value)) return outcome;
    const runId = outcome.value['run_id'];
    if (typeof runId !== 'string') return outcome;
    const viewed = await handles.view(runId);
    if (!viewed.ok) return outcome;
    return { ok: 'task', task: taskFields(viewed.value) };
  };
}

export interface RunTasksOptions {
  readonly handles: RunHandles;
  readonly onFault?: FaultReporter;
}

/** The extension: capability plus tasks/get, tasks/update and tasks/cancel over one session's run handles. */
export function createRunTasksExtension(opts: RunTasksOptions): ServerExtension {
  const faults = opts.onFault === undefined ? {} : { onFault: opts.onFault };
  const { handles } = opts;
  async function viewOf(taskId: string): Promise<JsonObject> {
    const viewed = await handles.view(taskId);
    if (!viewed.ok) throw faultOf(viewed);
    return viewed.value;
  }
  /**
   * A handler that first requires the extension on the request (so a client without it gets -32021 whatever it
   * sent), then checks the closed params, then reads the task id.
   */
  const declared =
    (method: string, fn: (taskId: string, ctx: ServerContext) => Promise<JsonObject>) =>
    async (params: Record<string, unknown>, ctx: ServerContext): Promise<JsonObject> => {
      if (!declaresExtension(ctx, TASKS_EXTENSION_ID)) throw missingCapability();
      if ('issues' in TASK_PARAMS['~standard'].validate(params)) {
        throw new JsonRpcFault(RpcCode.InvalidParams, `invalid params for ${method}`);
      }
      return fn(params['taskId'] as string, ctx);
    };

  /**
   * The SDK lifts a request's `inputResponses` out of its params (the revision's reserved retry field) into
   * `ctx.mcpReq`, keeping the bare responses and recording the keys of malformed ones as dropped.
   */
  async function update(taskId: string, ctx: ServerContext): Promise<JsonObject> {
    const responses = ctx.mcpReq.inputResponses ?? {};
    const dropped = ctx.mcpReq.droppedInputResponseKeys ?? [];
    const count = Object.keys(responses).length + dropped.length;
    if (count === 0 || count > MAX_INPUT_RESPONSES) {
      throw new JsonRpcFault(RpcCode.InvalidParams, `tasks/update needs 1 to ${MAX_INPUT_RESPONSES} inputResponses`);
    }
    const handle = await viewOf(taskId);
    const key = outstandingKey(handle);
    if (key !== undefined && dropped.includes(key)) throw notAnElicitResult(key);
    if (key === undefined || !Object.hasOwn(responses, key)) return {}; // nothing outstanding answered: ignored
    const view = inputResponse(responses, key);
    if (view.kind !== 'elicit') throw notAnElicitResult(key);
    const interruption = (handle['form'] as JsonObject)['interruption'] as string;
    if (view.action !== 'accept') {
      // The person declined (or dismissed) the one form the run waits for: the task cannot go on, so it is
      // cancelled, and the key is never asked again. (Refusing the answer would leave the key outstanding after a
      // response was delivered, which the revision forbids.) A run that finished meanwhile has superseded the key.
      const cancelled = await handles.cancel(taskId);
      if (!cancelled.ok && cancelled.error.code !== 'conflict') throw faultOf(cancelled);
      return {};
    }
    const resumed = await handles.answer(taskId, { action: view.action, content: view.content }, interruption);
    // The run moved on to another interruption since this request read it: the answered key is superseded, ignored.
    if (!resumed.ok && resumed.error.code === 'conflict') return {};
    if (!resumed.ok) throw faultOf(resumed);
    return {};
  }

  /** Exactly workflow_run_cancel: a completed or failed run is its `conflict` refusal, a cancelled one acknowledged. */
  async function cancel(taskId: string): Promise<JsonObject> {
    const cancelled = await handles.cancel(taskId);
    if (!cancelled.ok) throw faultOf(cancelled);
    return {};
  }

  return {
    capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    register(server) {
      const get = async (taskId: string) => taskOfHandle(await viewOf(taskId));
      for (const [method, fn] of [
        ['tasks/get', get],
        ['tasks/update', update],
        ['tasks/cancel', cancel],
      ] as const) {
        server.setRequestHandler(
          method,
          { params: ANY_PARAMS_OBJECT },
          guardedHandler(faults, method, declared(method, fn)) as never,
        );
      }
    },
  };
}
