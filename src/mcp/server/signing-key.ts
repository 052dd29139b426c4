/**
 * Where the checkpoint signing key comes from. With RIMTHAN_WORKFLOW_SIGNING_SECRET set, the environment decides
 * (active key, key id, retired verification keys). Without it, `rimthan serve` needs no configuration: a generated
 * 32-byte key is kept in the user state directory (file 0600 in a 0700 folder) and reused across restarts, so
 * checkpoints survive a process change. The caller is told which source was used, so it can say so on stderr.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isJsonObject, KeyRing, parseRetiredKeys, parseStrictJson, RimthanError, sha256Hex } from '../../core/index.js';

const KEY_FILE = 'signing-key.json';
const KEY_FORMAT = 'rimthan.signing-key/v1';
const MAX_KEY_FILE_BYTES = 4096;
const POSIX = process.platform !== 'win32';
/** Never follow a symlink at the key path; never block opening a FIFO planted there. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The key ring and where its active key came from. */
export interface SigningSetup {
  readonly ring: KeyRing;
  readonly source: 'environment' | 'state-file';
  /** The key file, for `state-file`. */
  readonly path?: string;
  /** True when this call generated the key file. */
  readonly created: boolean;
}

/** `$XDG_STATE_HOME/rimthan`, else `~/.local/state/rimthan`. */
export function rimthanStateDirectory(env: Record<string, string | undefined>): string {
  const xdg = env['XDG_STATE_HOME'];
  const base = xdg !== undefined && xdg.startsWith('/') ? xdg : join(env['HOME'] ?? homedir(), '.local', 'state');
  return join(base, 'rimthan');
}

function insecure(path: string, why: string): RimthanError {
  return new RimthanError('insecure_signing_key', `${path} ${why}`);
}

function notAKeyFile(path: string): RimthanError {
  return new RimthanError('invalid_signing_key', `${path} is not a rimthan signing key file`);
}

function ownedByUs(uid: number): boolean {
  return typeof process.getuid !== 'function' || uid === process.getuid();
}

/** Creates the state folder private (0700) and refuses one that is a symlink or belongs to another user. */
function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!POSIX) return;
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) throw insecure(dir, 'must be a directory, not a symlink');
  if (!ownedByUs(stat.uid)) throw insecure(dir, 'must belong to the user running rimthan');
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/** Reads the key file: a regular file of ours, not a symlink, private (0600 or stricter), at most 4 KiB. */
function readKeyFile(path: string, retired: Record<string, string>): KeyRing {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw insecure(path, 'must not be a symlink');
    throw error;
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notAKeyFile(path);
    if (POSIX && (stat.mode & 0o077) !== 0) throw insecure(path, 'must be readable by its owner only (chmod 600)');
    if (POSIX && !ownedByUs(stat.uid)) throw insecure(path, 'must belong to the user running rimthan');
    if (stat.size > MAX_KEY_FILE_BYTES) throw notAKeyFile(path);
    const buffer = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      length += n;
      if (n === 0 || length === buffer.length) break;
    }
    if (length > MAX_KEY_FILE_BYTES) throw notAKeyFile(path);
    text = buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
  const parsed = parseStrictJson(text, { maxBytes: MAX_KEY_FILE_BYTES, maxDepth: 2 });
  const body = parsed.ok ? parsed.value : undefined;
  if (
    !isJsonObject(body) ||
    body['format'] !== KEY_FORMAT ||
    typeof body['key_id'] !== 'string' ||
    typeof body['secret'] !== 'string'
  ) {
    throw notAKeyFile(path);
  }
  return new KeyRing({ activeKeyId: body['key_id'], activeSecret: body['secret'], retired });
}

/**
 * Creates the key file atomically: the secret is written to a new temp file opened O_CREAT|O_EXCL with mode 0600 (so
 * it is private from its first byte, and a planted file or symlink makes the open fail), flushed to disk, then
 * hard-linked into place (fails if one exists: another process won the race). The temp name is removed either way.
 */
function createKeyFile(path: string): boolean {
  const secret = randomBytes(32).toString('base64url');
  const keyId = `local-${sha256Hex(`rimthan-key-id:${secret}`).slice(0, 12)}`;
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
    0o600,
  );
  try {
    try {
      writeSync(fd, `${JSON.stringify({ format: KEY_FORMAT, key_id: keyId, secret })}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false; // another process won the race
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * The key ring for `rimthan serve`: from the environment when RIMTHAN_WORKFLOW_SIGNING_SECRET is set, else from (or
 * newly into) the state directory. Retired keys from RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON apply in both cases. A
 * RIMTHAN_WORKFLOW_SIGNING_KEY_ID without the secret is refused ('invalid_signing_key').
 */
export function loadSigningSetup(
  env: Record<string, string | undefined>,
  stateDir = rimthanStateDirectory(env),
): SigningSetup {
  const secret = env['RIMTHAN_WORKFLOW_SIGNING_SECRET'];
  if (secret !== undefined && secret !== '')
    return { ring: KeyRing.fromEnv(env), source: 'environment', created: false };
  const keyId = env['RIMTHAN_WORKFLOW_SIGNING_KEY_ID'];
  if (keyId !== undefined && keyId !== '') {
    // A key id names the environment secret; without one it would be silently ignored, and tokens signed by the
    // generated key would carry another id than the operator configured.
    throw new RimthanError(
      'invalid_signing_key',
      'RIMTHAN_WORKFLOW_SIGNING_KEY_ID is set but RIMTHAN_WORKFLOW_SIGNING_SECRET is not; set both, or neither to use the generated key',
    );
  }
  const retired = parseRetiredKeys(env['RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON']);
  privateDirectory(stateDir);
  const path = join(stateDir, KEY_FILE);
  let created = false;
  try {
    return { ring: readKeyFile(path, retired), source: 'state-file', path, created };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  created = createKeyFile(path);
  return { ring: readKeyFile(path, retired), source: 'state-file', path, created };
}
