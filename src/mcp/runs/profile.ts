/**
 * The runs profile: the seven durable-run tools as MCP tools, bound to one session. Over HTTP the session is the
 * authenticated principal; over stdio it is the configured (or generated) session id. Contracts are checked and
 * compiled once per process; the session-bound tool objects are cached per session (bounded). Given a catalog and a
 * request-state codec, `workflow_run_resume` of a run waiting for a person is asked as a form to a client that declared
 * form elicitation (tools/run-handles.ts `elicitedResume`); every other call and client is served as before. With
 * `tasks` as well, the profile serves the Tasks extension over the session's run handles (extensions/tasks.ts): tasks/get,
 * tasks/update, tasks/cancel, and `workflow_run_start` answered with a task to a client that declared the extension.
 */
import { canonicalJson, LruCache, RimthanError } from '../../core/index.js';
import type { JsonObject, RequestStateCodec } from '../../core/index.js';
import { createRunHandles, RunToolName } from '../../tools/index.js';
import type { RunHandles, RunTool, RunToolsCatalog } from '../../tools/index.js';
import type { McpProfile, ToolEntry, ToolRound } from '../server/profile.js';
import { ProfileName, RUNS_MAX_REQUEST_BYTES } from '../server/profile.js';
import { createRunTasksExtension, taskBackedStart, TASKS_EXTENSION_ID } from '../extensions/tasks.js';
import type { FaultReporter, ToolAnswer, ToolOutcome } from '../server/tool-call.js';
import { INVALID_ARGUMENTS } from '../server/tool-call.js';
import { compileToolContracts } from '../server/tool-contract.js';
import type { CompiledToolContract } from '../server/tool-contract.js';

export interface RunsProfileOptions {
  /** The run tools of one session (e.g. `createRunTools({sessionId, catalog, store, supervisor})`). */
  readonly toolsFor: (sessionId: string) => readonly RunTool[];
  readonly maxArgumentBytes?: number;
  readonly onFault?: FaultReporter;
  /** How many sessions' tool bundles to keep (least recently used are rebuilt on demand). */
  readonly maxCachedSessions?: number;
  /** With both: a person's resume asked as a form (MCP form elicitation); see the module comment. */
  readonly elicitation?: { readonly catalog: RunToolsCatalog; readonly codec: RequestStateCodec };
  /** With `elicitation`: serve the Tasks extension (task-backed workflow_run_start, tasks/*; extensions/tasks.ts). */
  readonly tasks?: boolean;
}

/** Builds profiles of one session each; see the module comment. */
export interface RunsProfileFactory {
  forSession(sessionId: string): McpProfile;
}

/**
 * Hands the tool the caller's arguments as the transport parsed them (`invokeParsed`: no text round trip), or, to a
 * tool without that entry point, as RFC 8785 text. `JSON.stringify` would quietly turn a number the transport decoded
 * as Infinity (`1e400`) into `null` and drop keys it cannot see; canonical JSON refuses such a document instead, so
 * the tool's strict decoder always judges exactly what the caller sent.
 */
function invokeExactly(tool: RunTool, args: JsonObject): Promise<ToolOutcome> {
  if (tool.invokeParsed !== undefined) return tool.invokeParsed(args);
  let text: string;
  try {
    text = canonicalJson(args);
  } catch {
    const message = 'arguments cannot be written as JSON (nested too deep, a number out of range or a lone surrogate)';
    return Promise.resolve({ ok: false, error: { code: INVALID_ARGUMENTS, message } });
  }
  return tool.invoke(text);
}

/** The profile factory; the first session's tools define (and check) the contracts. */
export function createRunsProfileFactory(opts: RunsProfileOptions): RunsProfileFactory {
  if (opts.tasks === true && opts.elicitation === undefined) {
    // The tasks ride on the run handles, which need the catalog and the request-state codec.
    throw new RimthanError('invalid_config', 'the Tasks extension of the runs profile needs the elicitation options');
  }
  let contracts: ReadonlyMap<string, CompiledToolContract> | undefined;
  const profiles = new LruCache<string, McpProfile>(opts.maxCachedSessions ?? 64);

  function contractsFor(tools: readonly RunTool[]): ReadonlyMap<string, CompiledToolContract> {
    if (contracts === undefined) {
      const compiled = compileToolContracts(
        tools.map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          inputSchema: t.inputSchema,
          outputSchema: t.outputSchema,
          annotations: t.annotations,
        })),
      );
      contracts = new Map(compiled.map((c) => [c.name, c]));
    }
    return contracts;
  }

  /** The multi-round resume of one session, bound to it (its request states name the session as the principal). */
  function elicitedResume(
    sessionId: string,
    handles: RunHandles,
  ): (args: JsonObject, round: ToolRound) => Promise<ToolAnswer> {
    return async (args, round) => {
      const answer =
        round.requestState === undefined
          ? undefined
          : { requestState: round.requestState, action: 'cancel' as const, ...round.answer };
      const call = { tool: RunToolName.RunResume, arguments: args, principalId: sessionId };
      const outcome = await handles.elicitedResume(call, answer);
      if (outcome.kind === 'result') return outcome.result;
      const ask = { message: outcome.message, requestedSchema: outcome.form as unknown as JsonObject };
      return { ok: 'ask', ask: { ...ask, requestState: outcome.requestState } };
    };
  }

  function build(sessionId: string): McpProfile {
    const tools = opts.toolsFor(sessionId);
    const known = contractsFor(tools);
    if (tools.length !== known.size)
      throw new RimthanError('invalid_tool_contract', 'run tool set changed between sessions');
    // One set of run handles per session, shared by the elicited resume and the Tasks extension.
    const handles = opts.elicitation === undefined ? undefined : createRunHandles({ tools, ...opts.elicitation });
    const resume = handles === undefined ? undefined : elicitedResume(sessionId, handles);
    const tasks = opts.tasks === true ? handles : undefined;
    const entries: ToolEntry[] = tools.map((tool) => {
      const contract = known.get(tool.name);
      if (contract === undefined) throw new RimthanError('invalid_tool_contract', `unexpected run tool ${tool.name}`);
      const handler = (args: JsonObject): Promise<ToolOutcome> => invokeExactly(tool, args);
      if (tool.name === RunToolName.RunResume && resume !== undefined) return { contract, handler, multiRound: resume };
      if (tool.name === RunToolName.RunStart && tasks !== undefined) {
        return { contract, handler, task: { extension: TASKS_EXTENSION_ID, handler: taskBackedStart(tasks, handler) } };
      }
      return { contract, handler };
    });
    const faults = opts.onFault === undefined ? {} : { onFault: opts.onFault };
    const extensions = tasks === undefined ? [] : [createRunTasksExtension({ handles: tasks, ...faults })];
    return {
      name: ProfileName.Runs,
      tools: entries,
      maxArgumentBytes: opts.maxArgumentBytes ?? RUNS_MAX_REQUEST_BYTES,
      ...faults,
      ...(extensions.length === 0 ? {} : { extensions }),
    };
  }

  return {
    forSession(sessionId) {
      const cached = profiles.get(sessionId);
      if (cached !== undefined) return cached;
      const profile = build(sessionId);
      profiles.set(sessionId, profile);
      return profile;
    },
  };
}
