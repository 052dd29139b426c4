/**
 * What every `rimthan participant` command shares: the server to talk to (`--server-command CMD` launched over stdio,
 * or `--url URL` over Streamable HTTP with a bearer token from `--token-file` or RIMTHAN_MCP_BEARER_TOKEN, never from
 * the command line), the workspace (`--workspace DIR`, default the working directory), `--json`, and the repository
 * policy (`--protected-path`), and `--timeout SECONDS` for each request. Library refusals become one-line failures
 * (a request that timed out says how to wait longer); the connection is always closed.
 */
import { isParticipantError, ParticipantSession, Workspace, connectServer } from '../../participant/index.js';
import type { GuidedServer, ServerTarget } from '../../participant/index.js';
import { stringList, stringOption } from '../args.js';
import type { Parsed } from '../args.js';
import { timeoutMs } from '../client-timeout.js';
import { CommandFailed, errorKind, UsageError } from '../errors.js';
import { existingFolder } from '../files.js';
import type { CliIo } from '../io.js';
import { tokensFrom } from '../serve-config.js';

/** Splits a command line into words: spaces separate, single or double quotes group, no shell. */
export function splitCommand(text: string, topic: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let started = false;
  for (const ch of text) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started || word !== '') words.push(word);
      word = '';
      started = false;
    } else word += ch;
  }
  if (quote !== undefined) throw new UsageError('--server-command has an unclosed quote', topic);
  if (started || word !== '') words.push(word);
  if (words.length === 0) throw new UsageError('--server-command is empty', topic);
  return words;
}

/** The server target of the options. */
export function targetOf(parsed: Parsed, io: CliIo, topic: string): ServerTarget {
  const command = stringOption(parsed, 'server-command');
  const url = stringOption(parsed, 'url');
  const tokenFile = stringOption(parsed, 'token-file');
  if ((command === undefined) === (url === undefined)) {
    throw new UsageError('give the server as --server-command CMD (stdio) or --url URL (HTTP), one of them', topic);
  }
  if (command !== undefined) {
    if (tokenFile !== undefined) throw new UsageError('--token-file applies only to --url', topic);
    const [program = '', ...args] = splitCommand(command, topic);
    return { kind: 'stdio', command: program, args, env: io.env, cwd: io.cwd };
  }
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url as string);
  } catch {
    throw new UsageError('--url must be an http:// or https:// URL', topic);
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    throw new UsageError('--url must be an http:// or https:// URL', topic);
  }
  if (parsedUrl.username !== '' || parsedUrl.password !== '') {
    throw new UsageError(
      '--url must not carry credentials: give the token with --token-file or RIMTHAN_MCP_BEARER_TOKEN',
      topic,
    );
  }
  const tokens = tokensFrom(
    { option: '--token-file', env: 'RIMTHAN_MCP_BEARER_TOKEN', what: 'a bearer token' },
    tokenFile,
    io,
  );
  return { kind: 'http', url: parsedUrl.href, ...(tokens?.[0] === undefined ? {} : { token: tokens[0] }) };
}

/** The workspace of the options (an existing folder). */
export function workspaceOf(parsed: Parsed, io: CliIo): Workspace {
  const dir = stringOption(parsed, 'workspace');
  return new Workspace(dir === undefined ? io.cwd : existingFolder(dir, io.cwd, 'the workspace', `--workspace ${dir}`));
}

/** The repository policy of the options. */
export function policyOf(parsed: Parsed): { conflict: false; protected_paths?: string[] } {
  const paths = stringList(parsed, 'protected-path');
  return paths.length === 0 ? { conflict: false } : { conflict: false, protected_paths: paths };
}

/** The MCP client's timeout code (a ParticipantError it caused says so through its cause). */
const REQUEST_TIMEOUT = -32001;

/**
 * Turns a library refusal into a one-line failure with its code. An error the MCP client or the served data raised
 * past the library's checks (an McpError, a ZodError, a TypeError or RangeError on a shape nobody expected) is the
 * server's answer failing, not a fault here: it becomes `server_mismatch` naming its kind, its stack kept as the cause
 * for `--debug`.
 */
export function asFailure(error: unknown, target?: ServerTarget): unknown {
  if (isParticipantError(error)) {
    const timedOut = (error.cause as { code?: unknown } | undefined)?.code === REQUEST_TIMEOUT;
    const hint = timedOut ? ' (wait longer with --timeout SECONDS)' : '';
    return new CommandFailed(error.code, `${error.message}${hint}`, { cause: error });
  }
  const kind = error instanceof Error ? error.name : '';
  if (
    target !== undefined &&
    ['McpError', 'ZodError', '$ZodError', 'TypeError', 'RangeError', 'SyntaxError'].includes(kind)
  ) {
    return new CommandFailed(
      'server_mismatch',
      `${describeServer(target)} sent an answer this client cannot use (${errorKind(error)})`,
      { cause: error },
    );
  }
  return error;
}

function describeServer(target: ServerTarget): string {
  return target.kind === 'stdio' ? `the server command ${target.command}` : `the server at ${target.url}`;
}

/** Connects, runs `body` with a session, always closes the connection. */
export async function withSession<T>(
  parsed: Parsed,
  io: CliIo,
  topic: string,
  body: (session: ParticipantSession, server: GuidedServer) => Promise<T>,
): Promise<T> {
  const workspace = workspaceOf(parsed, io);
  const target = targetOf(parsed, io, topic);
  const timeout = timeoutMs(parsed, topic);
  let server: GuidedServer | undefined;
  try {
    server = await connectServer(target, { timeoutMs: timeout });
    return await body(new ParticipantSession(server, workspace, { repositoryPolicy: policyOf(parsed) }), server);
  } catch (error) {
    throw asFailure(error, target);
  } finally {
    await server?.close().catch(() => undefined);
  }
}

/** True with `--json`. */
export function jsonOutput(parsed: Parsed): boolean {
  return parsed.values['json'] === true;
}
