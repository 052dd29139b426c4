/**
 * `rimthan runs list|get|history|cancel`: operator access to one session's durable runs through the same run tools a
 * model uses (same strict arguments, same safe results), printed as JSON. The supervisor is left idle: the command
 * reads and cancels runs but never executes one in the CLI process, and a store that does not exist is an error,
 * never created. Without `--session` the stdio session kept beside the store is used.
 */
import { canonicalJson } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { RunToolName } from '../../tools/index.js';
import type { RunToolName as ToolName } from '../../tools/index.js';
import { intOption, parseCommand, positionals, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { maskStoreSpec } from '../mask-store-spec.js';
import { DEFAULT_RUN_STORE, resolveStoreSpec } from '../run-store.js';
import { openRunsStack } from '../runs-wiring.js';
import { keptSession, sessionFileFor } from '../stdio-session.js';
import { RUNS_CANCEL_OPTIONS, RUNS_GET_OPTIONS, RUNS_HISTORY_OPTIONS, RUNS_LIST_OPTIONS } from './runs-options.js';

/** `--session`, else the stdio session kept beside the store (what an agent on this machine uses), never created. */
function sessionOf(parsed: Parsed, storeSpec: string, io: CliIo, topic: string): string {
  const given = stringOption(parsed, 'session');
  if (given !== undefined) return given;
  const resolved = resolveStoreSpec(storeSpec, io.cwd);
  const kept = keptSession(sessionFileFor(resolved.location, io.env));
  if (kept !== undefined) return kept;
  throw new UsageError(
    `--session ID is required: runs are session-scoped, and no stdio session is kept for ${maskStoreSpec(resolved.spec)}`,
    topic,
  );
}

async function invoke(parsed: Parsed, io: CliIo, tool: ToolName, args: JsonObject, topic: string): Promise<void> {
  const storeSpec = stringOption(parsed, 'store') ?? DEFAULT_RUN_STORE;
  const stack = await openRunsStack({ storeSpec, flows: stringOption(parsed, 'flows'), cwd: io.cwd, role: 'operator' });
  try {
    const session = sessionOf(parsed, storeSpec, io, topic);
    const found = stack.toolsFor(session).find((t) => t.name === tool);
    if (found === undefined) throw new CommandFailed('internal', `run tool ${tool} is missing`);
    const result = await found.invoke(canonicalJson(args));
    if (!result.ok) {
      io.err(JSON.stringify({ error: result.error }, null, 2));
      throw new CommandFailed(result.error.code, result.error.message, { reported: true });
    }
    io.out(JSON.stringify(result.value, null, 2));
  } finally {
    await stack.close();
  }
}

/** `runs list [--after CURSOR] [--limit N]`. */
export async function runsList(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs list';
  const parsed = parseCommand(argv, RUNS_LIST_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  const args: JsonObject = {};
  const after = stringOption(parsed, 'after');
  const limit = intOption(parsed, 'limit', 1, 100, topic);
  if (after !== undefined) args['after'] = after;
  if (limit !== undefined) args['limit'] = limit;
  await invoke(parsed, io, RunToolName.RunList, args, topic);
}

/** `runs get RUN_ID`. */
export async function runsGet(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs get';
  const parsed = parseCommand(argv, RUNS_GET_OPTIONS, topic);
  const [runId = ''] = positionals(parsed, 1, 'one run id: rimthan runs get RUN_ID', topic);
  await invoke(parsed, io, RunToolName.RunGet, { run_id: runId }, topic);
}

/** `runs history RUN_ID [--after-revision N] [--after-event-id ID] [--limit N]`. */
export async function runsHistory(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs history';
  const parsed = parseCommand(argv, RUNS_HISTORY_OPTIONS, topic);
  const [runId = ''] = positionals(parsed, 1, 'one run id: rimthan runs history RUN_ID', topic);
  const args: JsonObject = { run_id: runId };
  const afterRevision = intOption(parsed, 'after-revision', 0, Number.MAX_SAFE_INTEGER, topic);
  const afterEvent = stringOption(parsed, 'after-event-id');
  const limit = intOption(parsed, 'limit', 1, 100, topic);
  if (afterRevision !== undefined) args['after_revision'] = afterRevision;
  if (afterEvent !== undefined) args['after_event_id'] = afterEvent;
  if (limit !== undefined) args['limit'] = limit;
  await invoke(parsed, io, RunToolName.RunHistory, args, topic);
}

/** `runs cancel RUN_ID [--reason TEXT]`. */
export async function runsCancel(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs cancel';
  const parsed = parseCommand(argv, RUNS_CANCEL_OPTIONS, topic);
  const [runId = ''] = positionals(parsed, 1, 'one run id: rimthan runs cancel RUN_ID', topic);
  const reason = stringOption(parsed, 'reason');
  await invoke(
    parsed,
    io,
    RunToolName.RunCancel,
    reason === undefined ? { run_id: runId } : { run_id: runId, reason },
    topic,
  );
}
