/** Crash-safe file writes for the folder store: write a temporary sibling, flush it, then link or rename it in. */
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';

function writeTemp(path: string, bytes: Uint8Array): string {
  const temp = join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    let offset = 0;
    while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return temp;
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync a directory; the file itself is already flushed.
  }
}

/** Creates `path` with `bytes` only if it does not exist yet (returns false when it already exists). */
export function createExclusive(path: string, bytes: Uint8Array): boolean {
  const temp = writeTemp(path, bytes);
  try {
    linkSync(temp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(temp, { force: true });
  }
  syncDir(dirname(path));
  return true;
}

/** Replaces `path` atomically with `bytes`. */
export function replaceAtomically(path: string, bytes: Uint8Array): void {
  const temp = writeTemp(path, bytes);
  try {
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  syncDir(dirname(path));
}
