/**
 * `rimthan runs upgrade|restart|send-event|migrate-store`: operator actions on durable runs that no run tool offers (the seven
 * tools are the model's contract). They act on the store directly, without executing anything in the CLI process: an
 * upgraded-and-continued or restarted run is picked up by the workers serving the store. Output is JSON on stdout;
 * migrate-store reports its progress on stderr.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { systemClock } from '../../core/index.js';
import { isJsonObject } from '../../core/json.js';
import { restartRun, sendEvent, upgradeRun } from '../../runs/index.js';
import type { RunRecord, RunStore } from '../../runs/index.js';
import { migrateStore } from '../../runs/store/migrate-store.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { DEFAULT_RUN_STORE, openStore } from '../run-store.js';
import { loadCatalog } from '../runs-wiring.js';
import {
  RUNS_MIGRATE_STORE_OPTIONS,
  RUNS_RESTART_OPTIONS,
  RUNS_SEND_EVENT_OPTIONS,
  RUNS_UPGRADE_OPTIONS,
} from './runs-options.js';

/** The SQLite file of a store setting, or undefined for PostgreSQL. */
function sqliteFile(spec: string, cwd: string): string | undefined {
  if (/^postgres(ql)?:\/\//i.test(spec.trim())) return undefined;
  const path = spec.trim().replace(/^sqlite:/i, '');
  return path === '' || path === ':memory:' ? undefined : resolve(cwd, path);
}

/** Opens an existing store (an operator command never creates one by mistake). */
export async function existingStore(parsed: Parsed, io: CliIo): Promise<RunStore> {
  const spec = stringOption(parsed, 'store') ?? DEFAULT_RUN_STORE;
  const file = sqliteFile(spec, io.cwd);
  if (file !== undefined && !existsSync(file)) {
    throw new CommandFailed('store_unavailable', `no run store at ${file} (pass --store)`);
  }
  return openStore(spec, io.cwd, { create: false });
}

function session(parsed: Parsed, topic: string): string {
  const id = stringOption(parsed, 'session');
  if (id === undefined) throw new UsageError('--session ID is required (runs are session-scoped)', topic);
  return id;
}

function summary(run: RunRecord): string {
  return JSON.stringify(
    {
      run_id: run.run_id,
      definition_name: run.definition_name,
      definition_version: run.definition_version,
      run_status: run.status,
      status_summary: run.status_summary,
      checkpoint_revision: run.checkpoint_revision,
      updated_at: run.updated_at,
    },
    null,
    2,
  );
}

/** `runs upgrade RUN_ID --to VERSION [--continue]`. */
export async function runsUpgrade(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs upgrade';
  const parsed = parseCommand(argv, RUNS_UPGRADE_OPTIONS, topic);
  const [runId = ''] = positionals(parsed, 1, 'one run id: rimthan runs upgrade RUN_ID --to VERSION', topic);
  const to = stringOption(parsed, 'to');
  if (to === undefined) throw new UsageError('--to VERSION is required', topic);
  const sessionId = session(parsed, topic);
  const catalog = await loadCatalog(stringOption(parsed, 'flows'), io.cwd);
  const store = await existingStore(parsed, io);
  try {
    const run = await upgradeRun(store, catalog, systemClock, {
      runId,
      sessionId,
      toVersion: to,
      continue: parsed.values['continue'] === true,
    });
    io.out(summary(run));
  } finally {
    await store.close();
  }
}

/** `runs restart RUN_ID --from VERTEX`. */
export async function runsRestart(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs restart';
  const parsed = parseCommand(argv, RUNS_RESTART_OPTIONS, topic);
  const [runId = ''] = positionals(parsed, 1, 'one run id: rimthan runs restart RUN_ID --from VERTEX', topic);
  const from = stringOption(parsed, 'from');
  if (from === undefined) throw new UsageError('--from VERTEX is required', topic);
  const sessionId = session(parsed, topic);
  const catalog = await loadCatalog(stringOption(parsed, 'flows'), io.cwd);
  const store = await existingStore(parsed, io);
  try {
    io.out(summary(await restartRun(store, catalog, systemClock, { runId, sessionId, fromVertex: from })));
  } finally {
    await store.close();
  }
}

/** The `--payload` object (default {}); anything but a JSON object is a usage error. */
function eventPayload(parsed: Parsed, topic: string) {
  const text = stringOption(parsed, 'payload');
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('--payload must be a JSON object', topic);
  }
  if (!isJsonObject(value)) throw new UsageError('--payload must be a JSON object', topic);
  return value;
}

/** `runs send-event RUN_ID NAME --event-id ID [--payload JSON]`. */
export async function runsSendEvent(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs send-event';
  const parsed = parseCommand(argv, RUNS_SEND_EVENT_OPTIONS, topic);
  const usage = 'a run id and an event name: rimthan runs send-event RUN_ID NAME --event-id ID';
  const [runId = '', name = ''] = positionals(parsed, 2, usage, topic);
  const eventId = stringOption(parsed, 'event-id');
  if (eventId === undefined) throw new UsageError('--event-id ID is required (an event id is delivered once)', topic);
  const payload = eventPayload(parsed, topic);
  const sessionId = session(parsed, topic);
  const store = await existingStore(parsed, io);
  try {
    const result = await sendEvent(store, systemClock, { runId, sessionId, name, eventId, payload });
    io.out(JSON.stringify({ run_id: runId, name, event_id: eventId, delivered: result === 'delivered' }, null, 2));
  } finally {
    await store.close();
  }
}

/** `runs migrate-store --from sqlite:PATH --to postgres://... [--schema NAME]`. */
export async function runsMigrateStore(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs migrate-store';
  const parsed = parseCommand(argv, RUNS_MIGRATE_STORE_OPTIONS, topic);
  positionals(parsed, 0, 'no positional arguments', topic);
  const from = stringOption(parsed, 'from');
  const to = stringOption(parsed, 'to');
  if (from === undefined || !/^sqlite:./i.test(from)) throw new UsageError('--from sqlite:PATH is required', topic);
  if (to === undefined || !/^postgres(ql)?:\/\//i.test(to))
    throw new UsageError('--to postgres://... is required', topic);
  const schema = stringOption(parsed, 'schema');
  const report = await migrateStore({
    from: resolve(io.cwd, from.slice('sqlite:'.length)),
    to: { connectionString: to, ...(schema === undefined ? {} : { schema }) },
    onProgress: (message) => io.err(`rimthan: ${message}`),
  });
  io.out(JSON.stringify(report, null, 2));
}
