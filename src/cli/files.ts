import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

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
