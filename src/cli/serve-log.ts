/**
 * The event lines `rimthan serve` writes on stderr: start, release change, refused and recovered release refresh,
 * fault, stop. `--log-format text` (the default, for a person at a terminal or an MCP client showing stderr) writes
 * the human `rimthan: …` lines; `--log-format json` (or RIMTHAN_LOG_FORMAT=json, for a log collector) writes one JSON
 * object per line through the observability logger, with safe fields only. Either way: never a body, a token, a query
 * string, a principal or a participant value, and a fault by its kind only (with `--debug` and text lines, its stack).
 * The `listening on URL` notices are not events: they are written in both formats (tests and scripts read them).
 */
import { errorKindOf, jsonLogger } from '../observability/log.js';
import type { StructuredLogger } from '../observability/log.js';
import { choiceOption } from './args.js';
import type { Parsed } from './args.js';
import { debugDetail, errorKind, UsageError } from './errors.js';
import type { CliIo } from './io.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

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
  const logger = jsonLogger((line) => io.err(line));
  const log = jsonLog(logger);
  return version === undefined ? log : { ...log, started: (fields) => logger.log('start', { ...fields, version }) };
}
