/**
 * The event lines `rimthan serve` writes on stderr: start, release change, refused and recovered release refresh,
 * fault, stop. `--log-format text` (the default, for a person at a terminal or an MCP client showing stderr) writes
 * the human `rimthan: …` lines; `--log-format json` (or RIMTHAN_LOG_FORMAT=json, for a log collector) writes one JSON
 * object per line through the observability logger, with safe fields only. Either way: never a body, a token, a query
 * string, a principal or a participant value, and a fault by its kind only (with `--debug` and text lines, its stack).
 * The `listening on URL` notices are not events: a text line in text, a `notice` object in JSON.
 *
 * In JSON every stderr line is one JSON object, from the first to the last: run.ts gives a serve asking for JSON
 * (`requestedLogFormat`, read before the options are parsed) an io whose plain lines become `notice` objects
 * (`jsonStderr`: the generated-key notice, the listen address, the session), and reports its refusals as `refusal`
 * objects with the same error code and words (`stderrLogger`).
 */
import { errorKindOf, jsonLogger } from '../observability/log.js';
import type { StructuredLogger } from '../observability/log.js';
import { choiceOption } from './args.js';
import type { Parsed } from './args.js';
import { debugDetail, errorKind, UsageError } from './errors.js';
import type { CliIo } from './io.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The format a command line asks for before it is parsed (so a refusal of the parse itself is in that format): the
 * last `--log-format` before `--`, else RIMTHAN_LOG_FORMAT; anything but `json` is text (an invalid value is then
 * refused, in text, by {@link logFormat}).
 */
export function requestedLogFormat(argv: readonly string[], env: CliIo['env']): LogFormat {
  let given: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg === '--log-format') given = argv[++i];
    else if (arg.startsWith('--log-format=')) given = arg.slice('--log-format='.length);
  }
  return (given ?? env['RIMTHAN_LOG_FORMAT']?.trim()) === 'json' ? 'json' : 'text';
}

/** The JSON logger behind an io made by {@link jsonStderr}. */
const LOGGERS = new WeakMap<CliIo, StructuredLogger>();

/**
 * `io` with a JSON stderr: every line written to `err` becomes one `notice` object (its `rimthan: ` prefix dropped);
 * the event log and the refusal report of such an io write their own objects (see {@link stderrLogger}).
 */
export function jsonStderr(io: CliIo, now?: () => Date): CliIo {
  const logger = jsonLogger((line) => io.err(line), now);
  const err = (text: string): void => {
    for (const line of text.split('\n')) {
      if (line.trim() !== '') logger.log('notice', { message: line.replace(/^rimthan: /, '') });
    }
  };
  const wrapped = Object.create(io, { err: { value: err, enumerable: true } }) as CliIo;
  LOGGERS.set(wrapped, logger);
  return wrapped;
}

/** The structured logger of an io made by {@link jsonStderr}; undefined for a text stderr. */
export function stderrLogger(io: CliIo): StructuredLogger | undefined {
  return LOGGERS.get(io);
}

/** `--log-format`, else RIMTHAN_LOG_FORMAT, else text. */
export function logFormat(parsed: Parsed, env: CliIo['env'], topic: string): LogFormat {
  if (parsed.values['log-format'] !== undefined) return choiceOption(parsed, 'log-format', LOG_FORMATS, 'text', topic);
  const raw = env['RIMTHAN_LOG_FORMAT']?.trim();
  if (raw === undefined || raw === '') return 'text';
  if ((LOG_FORMATS as readonly string[]).includes(raw)) return raw as LogFormat;
  throw new UsageError('RIMTHAN_LOG_FORMAT must be text or json', topic);
}

export interface ServeLog {
  readonly format: LogFormat;
  /** The service listens (JSON only: the text form is the `listening on URL` notice itself). */
  started(fields: { readonly profile: string; readonly transport: string; readonly listen?: string }): void;
  /** A channel now serves `release` (undefined: the migration target was cleared). */
  releaseChanged(channel: 'active' | 'migration-target', release: string | undefined, previous?: string): void;
  /** A release refresh was refused (`atStart`: before the service listened). */
  refreshFailed(reason: string, atStart: boolean): void;
  refreshRecovered(): void;
  /** An unexpected fault, by kind only. */
  fault(where: string, error: unknown): void;
  /** A try of a run's vertex threw (the flow's own failure, not ours): the names and the error's kind, never its message. */
  vertexFailed(flow: string, vertex: string, error: unknown): void;
  /** The service stops (SIGINT/SIGTERM, or stdin closed). */
  stopped(): void;
}

function textLog(io: CliIo): ServeLog {
  return {
    format: 'text',
    started: () => undefined,
    releaseChanged: (channel, release) => {
      if (channel === 'active') io.err(`rimthan: now serving active release ${release ?? ''}`);
      else if (release === undefined) io.err('rimthan: migration target cleared (migration requests are refused)');
      else io.err(`rimthan: migration target ${release}`);
    },
    refreshFailed: (reason, atStart) =>
      io.err(
        atStart
          ? `rimthan: release store not fully usable at start (${reason})`
          : `rimthan: release refresh refused (${reason}); still serving the last verified release`,
      ),
    refreshRecovered: () => io.err('rimthan: release refresh recovered'),
    fault: (where, error) => {
      io.err(`rimthan: internal fault in ${where}: ${errorKind(error)}`);
      if (io.debug === true) io.err(debugDetail(error));
    },
    vertexFailed: (flow, vertex, error) => io.err(`rimthan: vertex failed: ${flow} ${vertex}: ${errorKind(error)}`),
    stopped: () => undefined,
  };
}

function jsonLog(logger: StructuredLogger): ServeLog {
  return {
    format: 'json',
    started: (fields) => logger.log('start', fields),
    releaseChanged: (channel, release, previous) =>
      logger.log('release_change', {
        channel,
        ...(release === undefined ? {} : { release }),
        ...(previous === undefined ? {} : { previous }),
      }),
    refreshFailed: (reason, atStart) =>
      logger.log('release_refresh_failed', { reason, ...(atStart ? { where: 'start' } : {}) }),
    refreshRecovered: () => logger.log('release_refresh_recovered'),
    fault: (where, error) => logger.fault(where, error),
    vertexFailed: (flow, vertex, error) => logger.log('vertex_failed', { flow, vertex, kind: errorKindOf(error) }),
    stopped: () => logger.log('stop'),
  };
}

/** The event log of one serve process, in `format`, on `io.err`. */
export function serveLog(io: CliIo, format: LogFormat, version?: string): ServeLog {
  if (format === 'text') return textLog(io);
  const logger = LOGGERS.get(io) ?? jsonLogger((line) => io.err(line));
  const log = jsonLog(logger);
  return version === undefined ? log : { ...log, started: (fields) => logger.log('start', { ...fields, version }) };
}
