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
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isJsonObject, KeyRing, parseRetiredKeys, parseStrictJson, RimthanError, sha256Hex } from '../core/index.js';

const KEY_FILE = 'signing-key.json';
const KEY_FORMAT = 'rimthan.signing-key/v1';

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

function insecure(path: string): RimthanError {
  return new RimthanError('insecure_signing_key', `${path} must be readable by its owner only (chmod 600)`);
}

function readKeyFile(path: string, retired: Record<string, string>): KeyRing {
  const fd = openSync(path, 'r');
  let text: string;
  try {
    if (process.platform !== 'win32' && (fstatSync(fd).mode & 0o077) !== 0) throw insecure(path);
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const parsed = parseStrictJson(text, { maxBytes: 4096, maxDepth: 2 });
  const body = parsed.ok ? parsed.value : undefined;
  if (
    !isJsonObject(body) ||
    body['format'] !== KEY_FORMAT ||
    typeof body['key_id'] !== 'string' ||
    typeof body['secret'] !== 'string'
  ) {
    throw new RimthanError('invalid_signing_key', `${path} is not a rimthan signing key file`);
  }
  return new KeyRing({ activeKeyId: body['key_id'], activeSecret: body['secret'], retired });
}

/** Creates the key file atomically: write a private temp file, then hard-link it into place (fails if one exists). */
function createKeyFile(path: string): boolean {
  const secret = randomBytes(32).toString('base64url');
  const keyId = `local-${sha256Hex(`rimthan-key-id:${secret}`).slice(0, 12)}`;
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ format: KEY_FORMAT, key_id: keyId, secret })}\n`, {
    mode: 0o600,
    flag: 'wx',
  });
  try {
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
 * newly into) the state directory. Retired keys from RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON apply in both cases.
 */
export function loadSigningSetup(
  env: Record<string, string | undefined>,
  stateDir = rimthanStateDirectory(env),
): SigningSetup {
  const secret = env['RIMTHAN_WORKFLOW_SIGNING_SECRET'];
  if (secret !== undefined && secret !== '')
    return { ring: KeyRing.fromEnv(env), source: 'environment', created: false };
  const retired = parseRetiredKeys(env['RIMTHAN_WORKFLOW_VERIFICATION_KEYS_JSON']);
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(stateDir, 0o700);
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
