/**
 * Configuration `rimthan serve` reads besides its options: the request cap, the bearer token, the stderr fault
 * reporter. Every problem is a CommandFailed with a message that names the setting, never its value.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FaultReporter } from '../mcp/server/tool-call.js';
import { ProfileName, RUNS_MAX_REQUEST_BYTES, WORKFLOW_ENGINE_MAX_REQUEST_BYTES } from '../mcp/server/profile.js';
import { CommandFailed, debugDetail, errorKind, reasonOf } from './errors.js';
import type { CliIo } from './io.js';

const MIN_REQUEST_BYTES = 1024;
const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

/** RIMTHAN_MCP_MAX_REQUEST_BYTES, or the profile's default (4 MiB workflow-engine, 1 MiB runs). */
export function requestCap(env: CliIo['env'], profile: ProfileName): number {
  const raw = env['RIMTHAN_MCP_MAX_REQUEST_BYTES'];
  if (raw === undefined || raw.trim() === '') {
    return profile === ProfileName.WorkflowEngine ? WORKFLOW_ENGINE_MAX_REQUEST_BYTES : RUNS_MAX_REQUEST_BYTES;
  }
  const value = raw.trim();
  if (!/^\d{1,12}$/.test(value) || Number(value) < MIN_REQUEST_BYTES || Number(value) > MAX_REQUEST_BYTES) {
    throw new CommandFailed(
      'invalid_config',
      `RIMTHAN_MCP_MAX_REQUEST_BYTES must be an integer from ${MIN_REQUEST_BYTES} to ${MAX_REQUEST_BYTES}`,
    );
  }
  return Number(value);
}

const MAX_TOKENS = 1024;
const TOKEN = /^[\x21-\x7e]{16,4096}$/;
/** The longest token text read (a token file, or stdin): MAX_TOKENS tokens of the longest length. */
export const MAX_TOKEN_TEXT_BYTES = MAX_TOKENS * 4098;

/**
 * The bearer tokens in `text`: every non-blank line, trimmed, in order (duplicates dropped). Problems name `source`
 * (`--token-file FILE`, `stdin`) and the line number, never a token.
 */
export function parseTokenLines(text: string, source: string, what = 'a bearer token'): string[] {
  const lines = text.split(/\r?\n/).map((line, i) => ({ token: line.trim(), line: i + 1 }));
  const present = lines.filter((l) => l.token !== '');
  if (present.length === 0) throw new CommandFailed('invalid_config', `${source} holds no token`);
  if (present.length > MAX_TOKENS) {
    throw new CommandFailed('invalid_config', `${source} holds more than ${MAX_TOKENS} tokens`);
  }
  const bad = present.find((l) => !TOKEN.test(l.token));
  if (bad !== undefined) {
    throw new CommandFailed(
      'invalid_config',
      `${source} line ${bad.line}: ${what} must be 16 to 4096 printable ASCII characters without spaces`,
    );
  }
  return [...new Set(present.map((l) => l.token))];
}

/** The text of a token file (`--token-file FILE` by default), or a one-line failure naming the file and why it cannot be read. */
export function readTokenFile(tokenFile: string, io: CliIo, option = '--token-file'): string {
  try {
    return readFileSync(resolve(io.cwd, tokenFile), 'utf8');
  } catch (error) {
    throw new CommandFailed('invalid_config', `cannot read ${option} ${tokenFile}: ${reasonOf(error)}`, {
      cause: error,
    });
  }
}

/** Where a list of bearer tokens comes from: a file option or, without it, an environment variable. */
export interface TokenSetting {
  /** The option's name as typed (`--token-file`). */
  readonly option: string;
  readonly env: string;
  /** What the tokens are for, in messages (`a bearer token`). */
  readonly what: string;
}

export const PARTICIPANT_TOKENS: TokenSetting = {
  option: '--token-file',
  env: 'RIMTHAN_MCP_BEARER_TOKEN',
  what: 'a bearer token',
};

/**
 * The accepted bearer tokens: every non-blank line of `--token-file` (trimmed; each token is its own principal, so
 * with the runs profile its own session), or RIMTHAN_MCP_BEARER_TOKEN; undefined for none. Problems name the setting
 * and the line number, never a token.
 */
export function bearerTokens(tokenFile: string | undefined, io: CliIo): string[] | undefined {
  return tokensFrom(PARTICIPANT_TOKENS, tokenFile, io);
}

/** The tokens of one setting (see {@link bearerTokens}); undefined when neither the file nor the variable is set. */
export function tokensFrom(setting: TokenSetting, tokenFile: string | undefined, io: CliIo): string[] | undefined {
  const { option, env, what } = setting;
  if (tokenFile !== undefined) {
    return parseTokenLines(readTokenFile(tokenFile, io, option), `${option} ${tokenFile}`, what);
  }
  const fromEnv = io.env[env];
  if (fromEnv === undefined || fromEnv === '') return undefined;
  const token = fromEnv.trim();
  if (!TOKEN.test(token)) {
    throw new CommandFailed('invalid_config', `${env} must be 16 to 4096 printable ASCII characters without spaces`);
  }
  return [token];
}

/**
 * Reports unexpected faults on stderr by kind only: no message, no stack (either could carry participant data). With
 * `rimthan --debug` the stack follows, for an operator debugging their own process.
 */
export function stderrFaultReporter(io: CliIo): FaultReporter {
  return (where, error) => {
    io.err(`rimthan: internal fault in ${where}: ${errorKind(error)}`);
    if (io.debug === true) io.err(debugDetail(error));
  };
}
