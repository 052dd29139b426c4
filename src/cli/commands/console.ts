/**
 * `rimthan console`: serves the web console over the release store (`--releases`), the run store (`--store`, with the
 * flow catalog of `--flows`) and the session files of `--workspace` folders. On loopback without admin tokens it prints
 * a one-time sign-in link; anywhere else it needs the admin side's tokens and refuses to start without them. The
 * console observes the run store: it starts, resumes and cancels runs, and never claims or executes one (the
 * `serve --profile runs` workers of the store do).
 */
import { resolve } from 'node:path';
import { TokenSigner } from '../../core/index.js';
import { isLoopback, releaseStoreConsole, SESSION_PATTERN, startConsole } from '../../console/index.js';
import { loadSigningSetup, ProfileName } from '../../mcp/index.js';
import { openReleaseStore } from '../release-store-config.js';
import { intOption, optionDefault, parseCommand, stringList, stringOption } from '../args.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { DEFAULT_RUN_STORE } from '../run-store.js';
import { openRunsStack } from '../runs-wiring.js';
import { requestCap, stderrFaultReporter, tokensFrom } from '../serve-config.js';
import { CONSOLE_OPTIONS } from './console-options.js';

const TOPIC = 'console';
/** The admin side's credentials: the console beyond loopback needs the same ones. */
const ADMIN_TOKENS = {
  option: '--admin-token-file',
  env: 'RIMTHAN_ADMIN_BEARER_TOKEN',
  what: 'an admin token',
} as const;
export const DEFAULT_CONSOLE_PORT = Number(optionDefault(CONSOLE_OPTIONS, 'port'));

/** `rimthan console [options]`; resolves on SIGINT/SIGTERM. */
export async function consoleCommand(argv: string[], io: CliIo): Promise<void> {
  const parsed = parseCommand(argv, CONSOLE_OPTIONS, TOPIC);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument: ${parsed.positionals[0] ?? ''}`, TOPIC);
  const host = stringOption(parsed, 'host') ?? optionDefault(CONSOLE_OPTIONS, 'host');
  const port = intOption(parsed, 'port', 0, 65535, TOPIC) ?? DEFAULT_CONSOLE_PORT;
  const tokens = tokensFrom(ADMIN_TOKENS, stringOption(parsed, 'admin-token-file'), io);
  if (tokens === undefined && !isLoopback(host)) {
    throw new UsageError(
      `the console on ${host} needs the admin tokens (--admin-token-file or RIMTHAN_ADMIN_BEARER_TOKEN); without them, listen on 127.0.0.1`,
      TOPIC,
    );
  }
  const session = stringOption(parsed, 'session');
  if (session !== undefined && !SESSION_PATTERN.test(session)) {
    throw new UsageError('--session must be 1 to 256 printable ASCII characters', TOPIC);
  }
  if (session !== undefined && tokens !== undefined) {
    throw new UsageError('--session applies only without tokens (a signed-in caller sees its own session)', TOPIC);
  }
  const maxRequestBytes = requestCap(io.env, ProfileName.Runs);
  const signing = loadSigningSetup(io.env);
  io.err(
    signing.source === 'environment'
      ? `rimthan: checking session files with key "${signing.ring.activeKeyId}" from RIMTHAN_WORKFLOW_SIGNING_SECRET`
      : `rimthan: checking session files with the key in ${signing.path ?? ''}`,
  );
  const releaseStore = await openReleaseStore(stringOption(parsed, 'releases'), io);
  const releases = releaseStoreConsole(releaseStore);
  const workspaces = stringList(parsed, 'workspace').map((w) => ({ label: w, dir: resolve(io.cwd, w) }));
  const onFault = stderrFaultReporter(io);
  const stack = await openRunsStack({
    storeSpec: stringOption(parsed, 'store') ?? DEFAULT_RUN_STORE,
    flows: stringOption(parsed, 'flows'),
    cwd: io.cwd,
    role: 'observer',
    onFault,
  });
  try {
    const running = await startConsole({
      host,
      port,
      releases,
      toolsFor: (id) => stack.toolsFor(id),
      sessions: stack.store,
      flows: { catalog: stack.catalog, store: stack.store },
      signer: new TokenSigner(signing.ring),
      ...(tokens === undefined ? {} : { tokens }),
      allowedHosts: stringList(parsed, 'allowed-host'),
      allowedOrigins: stringList(parsed, 'allowed-origin'),
      workspaces,
      ...(session === undefined ? {} : { defaultSession: session }),
      maxRequestBytes,
      onFault,
    });
    io.err(`rimthan: console listening on ${running.url}`);
    if (tokens === undefined) io.err('rimthan: the link signs one browser in, once; restart the console for a new one');
    await io.untilStopped();
    await running.close();
  } finally {
    await stack.close();
    await releaseStore.close();
  }
}
