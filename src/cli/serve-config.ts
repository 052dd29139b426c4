/**
 * Configuration `rimthan serve` reads besides its options: the request cap, the bearer token, the stderr fault
 * reporter. Every problem is a CommandFailed with a message that names the setting, never its value.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FaultReporter } from '../mcp/index.js';
import { ProfileName, RUNS_MAX_REQUEST_BYTES, WORKFLOW_ENGINE_MAX_REQUEST_BYTES } from '../mcp/index.js';
import { CommandFailed } from './errors.js';
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

/** The bearer token from `--token-file` (first line, trimmed) or RIMTHAN_MCP_BEARER_TOKEN; undefined for none. */
export function bearerToken(tokenFile: string | undefined, io: CliIo): string | undefined {
  let token: string | undefined;
  if (tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(io.cwd, tokenFile), 'utf8');
    } catch (error) {
      throw new CommandFailed('invalid_config', `cannot read --token-file ${tokenFile}`, { cause: error });
    }
    token = (text.split(/\r?\n/)[0] ?? '').trim();
  } else {
    const fromEnv = io.env['RIMTHAN_MCP_BEARER_TOKEN'];
    if (fromEnv === undefined || fromEnv === '') return undefined;
    token = fromEnv.trim();
  }
  if (!/^[\x21-\x7e]{16,4096}$/.test(token)) {
    throw new CommandFailed(
      'invalid_config',
      'the bearer token must be 16 to 4096 printable ASCII characters without spaces',
    );
  }
  return token;
}

/** Reports unexpected faults on stderr by kind only: no message, no stack (either could carry participant data). */
export function stderrFaultReporter(io: CliIo): FaultReporter {
  return (where, error) => {
    const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    const kind = error instanceof Error ? error.name : typeof error;
    io.err(`rimthan: internal fault in ${where}: ${kind}${typeof code === 'string' ? ` (${code})` : ''}`);
  };
}
