import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CommandFailed } from './errors.js';

/**
 * Writes `bytes` to a new file at `path` (creating its folder). An existing file is never changed: the answer is
 * `unchanged` when it already holds exactly these bytes, else `differs`.
 */
export function createExclusiveFile(path: string, bytes: Uint8Array): 'created' | 'unchanged' | 'differs' {
  mkdirSync(dirname(path), { recursive: true });
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from(readFileSync(path)).equals(Buffer.from(bytes)) ? 'unchanged' : 'differs';
  }
  try {
    let offset = 0;
    while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
  } finally {
    closeSync(fd);
  }
  return 'created';
}

/**
 * A path argument that must exist: its absolute form and whether it is a folder. `label` is how the message names it
 * (`DIR`, `--releases DIR`): `<label> does not exist`.
 */
export function existingPath(path: string, cwd: string, label = path): { absolute: string; isDir: boolean } {
  const absolute = resolve(cwd, path);
  try {
    return { absolute, isDir: statSync(absolute).isDirectory() };
  } catch (error) {
    throw new CommandFailed('not_found', `${label} does not exist`, { cause: error });
  }
}

/** A path argument that must be an existing folder (`what` says what the folder is for, in the message). */
export function existingFolder(path: string, cwd: string, what: string, label = path): string {
  const found = existingPath(path, cwd, label);
  if (!found.isDir) throw new CommandFailed('not_found', `${label} is not a folder (${what} is a folder)`);
  return found.absolute;
}
