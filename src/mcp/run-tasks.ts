/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) for the runs profile: a durable run seen as a
 * task whose id is the run's handle (its run id). `tasks/get` reports the handle's phase as the task's status (a run
 * waiting for a person with a flat resume schema is `input_required`, asking its form under the input key `resume`),
 * `tasks/update` carries the person's answer (validated as `workflow_run_resume` validates a `resume`), `tasks/cancel`
 * cancels as `workflow_run_cancel` does. Everything goes through the session's RunHandles, so isolation is the
 * session's: another principal's task id is "task not found" exactly like an unknown one.
 *
 * Not yet here: answering `workflow_run_start` with a task (CreateTaskResult) for a client that declared the extension.
 */
import { canonicalJson } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import type { RunHandles, RunToolResult } from '../tools/index.js';
import type { ServerExtension } from './server.js';
import { guardedHandler } from './server.js';
import type { FaultReporter } from './tool-call.js';
import { JsonRpcFault, RpcCode } from './wire.js';

export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
/** The input key a run's resume form is asked under in `inputRequests` / answered under in `inputResponses`. */
export const RESUME_INPUT_KEY = 'resume';
/** How often a requester should poll a working run (milliseconds). */
export const TASK_POLL_INTERVAL_MS = 2000;
const MAX_TASK_ID_CHARS = 64;

const STATUS_OF_PHASE: Readonly<Record<string, string>> = {
  working: 'working',
  awaiting_person: 'input_required',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A StandardSchemaV1 for closed params objects: only `taskId` (a bounded string) plus the listed extra keys. */
function paramsSchema(extra: Readonly<Record<string, (v: unknown) => boolean>>) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'rimthan',
      validate(value: unknown) {
        const bad = { issues: [{ message: 'invalid params' }] };
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad;
        const o = value as Record<string, unknown>;
        const id = o['taskId'];
        if (typeof id !== 'string' || id.length === 0 || id.length > MAX_TASK_ID_CHARS) return bad;
        for (const [k, v] of Object.entries(o)) {
          if (k === 'taskId' || k === '_meta') continue;
          const check = extra[k];
          if (check === undefined || !check(v)) return bad;
        }
        for (const k of Object.keys(extra)) if (!(k in o)) return bad;
        return { value: o };
      },
    },
  };
}

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Run-tool refusals become JSON-RPC errors; not_found is the task's not-found (same for another principal's id). */
function faultOf(result: Extract<RunToolResult, { ok: false }>): JsonRpcFault {
  if (result.error.code === 'not_found') return new JsonRpcFault(RpcCode.InvalidParams, 'task not found');
  return new JsonRpcFault(RpcCode.InvalidParams, result.error.message, { code: result.error.code });
}

/** The DetailedTask view of a handle (`RunHandles.view` value). */
export function taskOfHandle(handle: JsonObject): JsonObject {
  const run = (handle['run'] ?? {}) as JsonObject;
  const status = STATUS_OF_PHASE[handle['phase'] as string] ?? 'working';
  const createdAt = typeof run['created_at'] === 'string' ? run['created_at'] : new Date(0).toISOString();
  const task: JsonObject = {
    taskId: handle['run_id'] as string,
    status,
    createdAt,
    lastUpdatedAt: typeof run['updated_at'] === 'string' ? run['updated_at'] : createdAt,
    ttlMs: null,
  };
  if (typeof handle['status_message'] === 'string') task['statusMessage'] = handle['status_message'];
  if (status === 'working' || status === 'input_required') task['pollIntervalMs'] = TASK_POLL_INTERVAL_MS;
  if (status === 'input_required') {
    const form = handle['form'] as JsonObject;
    task['inputRequests'] = {
      [RESUME_INPUT_KEY]: {
        method: 'elicitation/create',
        params: { mode: 'form', message: form['message'] as string, requestedSchema: form['schema'] as JsonObject },
      },
    };
  }
  if (status === 'completed') {
    task['result'] = { content: [{ type: 'text', text: canonicalJson(run) }], structuredContent: run };
  }
  if (status === 'failed') task['error'] = { code: RpcCode.InternalError, message: 'the run failed' };
  return task;
}

export interface RunTasksOptions {
  readonly handles: RunHandles;
  readonly onFault?: FaultReporter;
}

/** The extension: capability plus tasks/get, tasks/update and tasks/cancel over one session's run handles. */
export function createRunTasksExtension(opts: RunTasksOptions): ServerExtension {
  const faults = opts.onFault === undefined ? {} : { onFault: opts.onFault };
  async function get(taskId: string): Promise<JsonObject> {
    const viewed = await opts.handles.view(taskId);
    if (!viewed.ok) throw faultOf(viewed);
    return taskOfHandle(viewed.value);
  }
  return {
    capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    register(server) {
      server.setRequestHandler(
        'tasks/get',
        { params: paramsSchema({}) },
        guardedHandler(faults, 'tasks/get', async (params: Record<string, unknown>) =>
          get(params['taskId'] as string),
        ) as never,
      );
      server.setRequestHandler(
        'tasks/update',
        { params: paramsSchema({ inputResponses: isObject }) },
        guardedHandler(faults, 'tasks/update', async (params: Record<string, unknown>) => {
          const taskId = params['taskId'] as string;
          const responses = params['inputResponses'] as Record<string, unknown>;
          const answer = responses[RESUME_INPUT_KEY];
          if (!isObject(answer) || Object.keys(responses).length !== 1) {
            throw new JsonRpcFault(RpcCode.InvalidParams, `inputResponses must hold exactly "${RESUME_INPUT_KEY}"`);
          }
          const a = answer as Record<string, unknown>;
          const action = a['action'];
          if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
            throw new JsonRpcFault(RpcCode.InvalidParams, 'inputResponses.resume.action is invalid');
          }
          const resumed = await opts.handles.answer(taskId, { action, content: a['content'] });
          if (!resumed.ok) throw faultOf(resumed);
          return {};
        }) as never,
      );
      server.setRequestHandler(
        'tasks/cancel',
        { params: paramsSchema({}) },
        guardedHandler(faults, 'tasks/cancel', async (params: Record<string, unknown>) => {
          const taskId = params['taskId'] as string;
          const cancelled = await opts.handles.cancel(taskId);
          if (!cancelled.ok) throw faultOf(cancelled);
          return {};
        }) as never,
      );
    },
  };
}
