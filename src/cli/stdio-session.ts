/**
 * The session of the runs profile over stdio when no `--session` is given: generated once and kept beside the store
 * (`<file>.stdio-session` next to a SQLite file; for PostgreSQL, a file per database in the state directory), mode
 * 0600, so an agent restarted tomorrow sees the runs it started today. Operator commands read it, never create it.
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256Hex } from '../core/index.js';
import { rimthanStateDirectory } from '../mcp/server/signing-key.js';
import type { RunStoreLocation } from '../runs/store/index.js';
import { CommandFailed, reasonOf } from './errors.js';
import { maskStoreSpec } from './mask-store-spec.js';

const SESSION_ID = /^[\x21-\x7e]{1,256}$/;
const MAX_FILE_BYTES = 1024;

/** The file that keeps the stdio session of the store at `location`. */
export function sessionFileFor(location: RunStoreLocation, env: Readonly<Record<string, string | undefined>>): string {
  if (location.kind === 'sqlite') return `${location.path}.stdio-session`;
  const digest = sha256Hex(maskStoreSpec(location.connectionString)).slice(0, 16);
  return join(rimthanStateDirectory(env), 'stdio-sessions', `postgres-${digest}`);
}

function readSession(file: string): string {
  const text = readFileSync(file).subarray(0, MAX_FILE_BYTES).toString('utf8').trim();
  if (!SESSION_ID.test(text)) {
    throw new CommandFailed(
      'session_invalid',
      `${file} does not hold a session id (1 to 256 printable characters); fix it, or pass --session`,
    );
  }
  return text;
}

/** The session kept in `file`, or undefined when there is none yet. */
export function keptSession(file: string): string | undefined {
  try {
    return readSession(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof CommandFailed) throw error;
    throw new CommandFailed('session_unavailable', `cannot read the stdio session ${file}: ${reasonOf(error)}`, {
      cause: error,
    });
  }
}

/**
 * The session kept in `file`, created on first use. The id is written to a private temporary file that is then
 * hard-linked into place, so the file appears complete or not at all, and two servers starting at once agree on one
 * id. `created` says whether this call generated it.
 */
export function keepSession(file: string): { id: string; created: boolean } {
  const existing = keptSession(file);
  if (existing !== undefined) return { id: existing, created: false };
  const id = `stdio-${randomUUID()}`;
  const temp = `${file}.${process.pid}-${randomUUID()}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temp, `${id}\n`, { mode: 0o600, flag: 'wx' });
    linkSync(temp, file);
    return { id, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotKeep(file, error);
  } finally {
    rmSync(temp, { force: true });
  }
  // Another server created it first: use its id.
  try {
    return { id: readSession(file), created: false };
  } catch (error) {
    if (error instanceof CommandFailed) throw error;
    throw cannotKeep(file, error);
  }
}

function cannotKeep(file: string, error: unknown): CommandFailed {
  return new CommandFailed('session_unavailable', `cannot keep the stdio session in ${file}: ${reasonOf(error)}`, {
    cause: error,
  });
}
