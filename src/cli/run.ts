/**
 * The CLI dispatcher and the ONE place that decides the exit code: commands return normally (0) or throw; a
 * UsageError is 2, anything else 1. Unexpected errors are reported by kind only (no message, no stack: a message could
 * carry data a library did not expect to be printed).
 */
import { isRimthanError } from '../core/index.js';
import { packageVersion } from '../mcp/version.js';
import { CommandFailed, ExitCode, UsageError } from './errors.js';
import { helpText } from './help.js';
import type { CliIo } from './io.js';

type Command = (argv: string[], io: CliIo) => Promise<void>;
type Loader = () => Promise<Command>;

/** Commands by their words; loaded lazily so `--help` stays fast and serve-only dependencies load only for serve. */
const COMMANDS: Readonly<Record<string, Loader>> = {
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  'registry check': async () => (await import('./commands/registry.js')).registryCheck,
  'registry build': async () => (await import('./commands/registry.js')).registryBuild,
  'registry graph': async () => (await import('./commands/registry.js')).registryGraph,
  'runs list': async () => (await import('./commands/runs.js')).runsList,
  'runs get': async () => (await import('./commands/runs.js')).runsGet,
  'runs history': async () => (await import('./commands/runs.js')).runsHistory,
  'runs cancel': async () => (await import('./commands/runs.js')).runsCancel,
};
const GROUPS = new Set(['registry', 'runs']);

function isHelp(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h';
}

/** Maps an outcome to an exit code, printing what the user needs on stderr. */
export function exitCodeFor(error: unknown, io: CliIo): ExitCode {
  if (error instanceof UsageError) {
    const hint = error.topic === '' ? 'rimthan --help' : `rimthan ${error.topic} --help`;
    io.err(`rimthan: ${error.message}\nSee: ${hint}`);
    return ExitCode.Usage;
  }
  if (error instanceof CommandFailed) {
    if (!error.reported) io.err(`rimthan: ${error.message}`);
    return ExitCode.Failure;
  }
  if (isRimthanError(error)) {
    io.err(`rimthan: ${error.code}: ${error.message}`);
    return ExitCode.Failure;
  }
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const kind =
    error instanceof Error ? `${error.name}${typeof code === 'string' ? ` (${code})` : ''}` : 'unknown error';
  io.err(`rimthan: unexpected failure: ${kind}`);
  return ExitCode.Failure;
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
  try {
    await dispatch(argv, io);
    return ExitCode.Ok;
  } catch (error) {
    return exitCodeFor(error, io);
  }
}
