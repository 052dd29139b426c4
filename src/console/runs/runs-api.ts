/**
 * The console's runs operations, each through the seven run tools of the chosen session (createRunTools), so every
 * argument gets the tools' strict decoding and every answer is their safe result or their error. The one operation
 * of its own, `find`, pages through `workflow_run_list` and filters what it read by status and definition.
 */
import { canonicalJson, isJsonObject, LruCache } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { RunStatus } from '../../runs/index.js';
import { RunToolErrorCode, RunToolName } from '../../tools/index.js';
import type { RunTool, RunToolResult, RunToolName as ToolName } from '../../tools/index.js';
import type { RunsAnswer, SafeRunView } from '../api-types.js';

/** A session id the store accepts: printable ASCII, at most 256 bytes. */
export const SESSION_PATTERN = /^[\x21-\x7e]{1,256}$/;
/** Runs one find looks at, at most (10 pages of the list tool). */
export const MAX_SCANNED = 1000;
/** A find stops reading pages once it holds this many matches. */
export const FIND_PAGE = 50;

export interface RunFilter {
  readonly status?: string;
  /** `name` or `name@version`. */
  readonly definition?: string;
  readonly after?: string;
}

const STATUSES: ReadonlySet<string> = new Set(Object.values(RunStatus));

function matches(run: JsonObject, filter: RunFilter): boolean {
  if (filter.status !== undefined && run['run_status'] !== filter.status) return false;
  if (filter.definition === undefined) return true;
  const name = run['definition_name'] as string;
  return filter.definition === name || filter.definition === `${name}@${run['definition_version'] as string}`;
}

export class ConsoleRuns {
  readonly #bundles = new LruCache<string, RunTool[]>(64);

  constructor(private readonly toolsFor: (session: string) => RunTool[]) {}

  /** One run tool call of `session` with `args` (sent to the tool as JSON text, decoded by it). */
  async call(session: string, tool: ToolName, args: JsonObject): Promise<RunToolResult> {
    const found = this.#tools(session).find((t) => t.name === tool);
    if (found === undefined)
      return { ok: false, error: { code: RunToolErrorCode.Internal, message: 'internal error' } };
    return found.invoke(canonicalJson(args));
  }

  /** Runs of `session` matching `filter`, in creation order, from the list cursor `after`. */
  async find(session: string, filter: RunFilter): Promise<RunToolResult> {
    if (filter.status !== undefined && !STATUSES.has(filter.status)) {
      return {
        ok: false,
        error: { code: RunToolErrorCode.InvalidArguments, message: 'argument "status" is not a run status' },
      };
    }
    if (filter.definition !== undefined && (filter.definition.length === 0 || filter.definition.length > 257)) {
      return {
        ok: false,
        error: {
          code: RunToolErrorCode.InvalidArguments,
          message: 'argument "definition" must be NAME or NAME@VERSION',
        },
      };
    }
    const runs: SafeRunView[] = [];
    let after = filter.after;
    let scanned = 0;
    while (scanned < MAX_SCANNED && runs.length < FIND_PAGE) {
      const page = await this.call(
        session,
        RunToolName.RunList,
        after === undefined ? { limit: 100 } : { after, limit: 100 },
      );
      if (!page.ok) return page;
      const listed = (page.value['runs'] as JsonObject[] | undefined) ?? [];
      scanned += listed.length;
      for (const run of listed) if (isJsonObject(run) && matches(run, filter)) runs.push(run as unknown as SafeRunView);
      const next = page.value['next'];
      after = typeof next === 'string' ? next : undefined;
      if (after === undefined) break;
    }
    const answer: RunsAnswer = { session, runs, scanned, ...(after === undefined ? {} : { next: after }) };
    return { ok: true, value: answer as unknown as JsonObject };
  }

  #tools(session: string): RunTool[] {
    let tools = this.#bundles.get(session);
    if (tools === undefined) {
      tools = this.toolsFor(session);
      this.#bundles.set(session, tools);
    }
    return tools;
  }
}
