/**
 * The CLI dispatcher and the ONE place that decides the exit code: commands return normally (0) or throw; a
 * UsageError is 2, anything else 1. Unexpected errors are reported by kind only (no message, no stack: a message could
 * carry data a library did not expect to be printed), unless the operator asks for `rimthan --debug ...`.
 */
import { isRimthanError } from '../core/index.js';
import { packageVersion } from '../package/index.js';
import { CommandFailed, debugDetail, errorKind, ExitCode, systemFailure, UsageError } from './errors.js';
import { helpText } from './help.js';
import { terminalIo } from './io.js';
import type { CliIo } from './io.js';
import { jsonStderr, requestedLogFormat, stderrLogger } from './serve-log.js';
import { errorKindOf, jsonLogger } from '../observability/log.js';

type Command = (argv: string[], io: CliIo) => Promise<void>;
type Loader = () => Promise<Command>;

/** Commands by their words; loaded lazily so `--help` stays fast and serve-only dependencies load only for serve. */
const COMMANDS: Readonly<Record<string, Loader>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  console: async () => (await import('./commands/console.js')).consoleCommand,
  'registry init': async () => (await import('./commands/registry-init.js')).registryInit,
  'registry check': async () => (await import('./commands/registry.js')).registryCheck,
  'registry build': async () => (await import('./commands/registry.js')).registryBuild,
  'registry graph': async () => (await import('./commands/registry.js')).registryGraph,
  'registry test': async () => (await import('./commands/registry-test.js')).registryTest,
  'runs list': async () => (await import('./commands/runs.js')).runsList,
  'runs get': async () => (await import('./commands/runs.js')).runsGet,
  'runs history': async () => (await import('./commands/runs.js')).runsHistory,
  'runs cancel': async () => (await import('./commands/runs.js')).runsCancel,
  'runs upgrade': async () => (await import('./commands/runs-operator.js')).runsUpgrade,
  'runs restart': async () => (await import('./commands/runs-operator.js')).runsRestart,
  'runs send-event': async () => (await import('./commands/runs-operator.js')).runsSendEvent,
  'runs migrate-store': async () => (await import('./commands/runs-operator.js')).runsMigrateStore,
  'runs session-id': async () => (await import('./commands/runs-session.js')).runsSessionId,
  'runs prune': async () => (await import('./commands/runs-prune.js')).runsPrune,
  'runs graph': async () => (await import('./commands/runs-graph.js')).runsGraph,
  'runs schedules': async () => (await import('./commands/runs-schedules.js')).runsSchedules,
  'participant start': async () => (await import('./commands/participant.js')).participantStart,
  'participant status': async () => (await import('./commands/participant.js')).participantStatus,
  'participant answer': async () => (await import('./commands/participant.js')).participantAnswer,
  'participant continue': async () => (await import('./commands/participant.js')).participantContinue,
  'participant write-assets': async () => (await import('./commands/participant.js')).participantWriteAssets,
  'participant prepare': async () => (await import('./commands/participant.js')).participantPrepare,
  'participant report': async () => (await import('./commands/participant.js')).participantReport,
  'participant submit': async () => (await import('./commands/participant.js')).participantSubmit,
  'participant run': async () => (await import('./commands/participant-run.js')).participantRun,
  'admin publish': async () => (await import('./commands/admin.js')).adminPublish,
  'admin list': async () => (await import('./commands/admin.js')).adminList,
  'admin show': async () => (await import('./commands/admin.js')).adminShow,
  'admin activate': async () => (await import('./commands/admin.js')).adminActivate,
  'admin rollback': async () => (await import('./commands/admin.js')).adminRollback,
  'admin migration-target': async () => (await import('./commands/admin.js')).adminMigrationTarget,
  'rollout claude-code': async () => (await import('./commands/rollout.js')).rolloutClaudeCode,
  'rollout codex': async () => (await import('./commands/rollout.js')).rolloutCodex,
};
const GROUPS = new Set(['registry', 'runs', 'participant', 'admin', 'rollout']);

function isHelp(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h';
}

/** Maps an outcome to an exit code, printing what the user needs on stderr. */
export function exitCodeFor(error: unknown, io: CliIo): ExitCode {
  const code = reportFor(error, io);
  if (io.debug === true && !(error instanceof UsageError)) terminalIo(io).err(debugDetail(error));
  return code;
}

/** What a failed command reports: a refusal (its code, words and help topic), or an unexpected fault by kind. */
type Report =
  | {
      readonly exit: ExitCode;
      readonly code: string;
      readonly text: string;
      readonly message: string;
      readonly help?: string;
    }
  | { readonly exit: ExitCode; readonly fault: unknown }
  | { readonly exit: ExitCode; readonly reported: true };

function describeFailure(error: unknown): Report {
  if (error instanceof UsageError) {
    const help = error.topic === '' ? 'rimthan --help' : `rimthan ${error.topic} --help`;
    return { exit: ExitCode.Usage, code: error.code, text: error.message, message: error.message, help };
  }
  if (error instanceof CommandFailed) {
    if (error.reported) return { exit: ExitCode.Failure, reported: true };
    return { exit: ExitCode.Failure, code: error.code, text: error.message, message: error.message };
  }
  if (isRimthanError(error)) {
    return {
      exit: ExitCode.Failure,
      code: error.code,
      text: `${error.code}: ${error.message}`,
      message: error.message,
    };
  }
  const system = systemFailure(error);
  if (system !== undefined) return { exit: ExitCode.Failure, code: errorKindOf(error), text: system, message: system };
  return { exit: ExitCode.Failure, fault: error };
}

/** Prints what the user needs on stderr: `rimthan: …` lines, or with a JSON stderr one object per refusal or fault. */
function reportFor(error: unknown, given: CliIo): ExitCode {
  const report = describeFailure(error);
  const logger = stderrLogger(given);
  // A message may carry text a server or a file sent (a name, a reason): escaped for the terminal, bounded.
  const io = terminalIo(given);
  if ('reported' in report) return report.exit;
  if ('fault' in report) {
    if (logger !== undefined) logger.fault('cli', report.fault);
    else io.err(`rimthan: unexpected failure: ${errorKind(report.fault)}${io.debug === true ? '' : DEBUG_HINT}`);
    return report.exit;
  }
  if (logger !== undefined) {
    const { code, message, help } = report;
    logger.log('refusal', { code, message, ...(help === undefined ? {} : { help }) });
  } else {
    io.err(report.help === undefined ? `rimthan: ${report.text}` : `rimthan: ${report.text}\nSee: ${report.help}`);
  }
  return report.exit;
}

/** What an unexpected failure adds when the stack was not printed. */
const DEBUG_HINT = ' (run again as `rimthan --debug <command> ...` for the stack)';

/**
 * Installs the last line of defence for `main.ts`: an exception nobody caught (a late timer in a loaded module, an
 * EPIPE on stdout) is reported like any unexpected failure, by kind only (with `--debug`, its stack), and exits 1,
 * instead of Node printing the message and stack.
 */
export function exitOnUncaught(argv: readonly string[], err: (text: string) => void): void {
  const { debug, rest } = leadingDebug(argv);
  const json = logsJson(rest, process.env);
  process.on('uncaughtException', (error: unknown) => {
    try {
      if (json) {
        const logger = jsonLogger(err);
        logger.fault('process', error);
        if (debug) for (const line of debugDetail(error).split('\n')) logger.log('notice', { message: line });
      } else {
        err(`rimthan: unexpected failure: ${errorKind(error)}${debug ? '' : DEBUG_HINT}`);
        if (debug) err(debugDetail(error));
      }
    } finally {
      process.exit(ExitCode.Failure);
    }
  });
}

/** True when the command line is a `serve` that logs JSON (`--log-format json` or RIMTHAN_LOG_FORMAT=json). */
function logsJson(rest: readonly string[], env: CliIo['env']): boolean {
  return rest[0] === 'serve' && requestedLogFormat(rest.slice(1), env) === 'json';
}

/** `io` with `debug` set; its other members (including a lazy `cwd`) are read through, not copied. */
function withDebug(io: CliIo): CliIo {
  return Object.create(io, { debug: { value: true, enumerable: true } }) as CliIo;
}

/** Strips leading `--debug` flags (global options come before the command). */
function leadingDebug(argv: readonly string[]): { debug: boolean; rest: readonly string[] } {
  let i = 0;
  while (argv[i] === '--debug') i++;
  return { debug: i > 0, rest: argv.slice(i) };
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<void> {
  const [first, second] = argv;
  if (first === undefined || isHelp(first)) {
    io.out(helpText(''));
    if (first === undefined) throw new UsageError('missing command');
    return;
  }
  if (first === '--version') {
    io.out(packageVersion());
    return;
  }
  let words = first;
  let rest = argv.slice(1);
  if (GROUPS.has(first)) {
    if (second === undefined || isHelp(second)) {
      io.out(helpText(first));
      if (second === undefined) throw new UsageError(`missing ${first} subcommand`, first);
      return;
    }
    words = `${first} ${second}`;
    rest = argv.slice(2);
  }
  const load = COMMANDS[words];
  if (load === undefined) throw new UsageError(`unknown command: ${words}`, GROUPS.has(first) ? first : '');
  if (rest.some(isHelp)) {
    io.out(helpText(words));
    return;
  }
  const command = await load();
  await command([...rest], io);
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const { debug, rest } = leadingDebug(argv);
  const plain: CliIo = debug ? withDebug(io) : io;
  // A serve logging JSON writes only JSON objects on stderr: its notices, its events and its refusals.
  const run = logsJson(rest, io.env) ? jsonStderr(plain) : plain;
  try {
    await dispatch(rest, run);
    return ExitCode.Ok;
  } catch (error) {
    return exitCodeFor(error, run);
  }
}
