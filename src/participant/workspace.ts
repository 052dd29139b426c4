/**
 * The participant's repository on disk, as the server's attestation rules see it: every path is workspace-relative,
 * normalised POSIX and outside the reserved folders (`.git`, `.hg`, `.svn`, `.rimthan`); every component below the
 * workspace root is checked with `lstat` and a symbolic link anywhere is refused, never followed. Files are read
 * back as the bytes on disk (opened with O_NOFOLLOW and checked to be the file lstat saw) and written atomically
 * (a temporary file in the same folder, fsync, rename). A path the file system cannot hold (a name longer than it
 * allows, ENAMETOOLONG) is refused like any other unsafe path, before or when the file system says so.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { projectPathProblem } from '../registry/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';

/** The longest file name (one path segment, in UTF-8 bytes) the common file systems hold. */
export const MAX_SEGMENT_BYTES = 255;

/** What `lstat` found at a workspace path whose parents are all real folders. */
export type PathState = { readonly kind: 'missing' } | { readonly kind: 'file'; readonly stats: Stats };

function tooLong(shown: string): ParticipantError {
  return new ParticipantError(
    ParticipantErrorCode.UnsafePath,
    `${JSON.stringify(shown.slice(0, 200))} is longer than the file system allows (ENAMETOOLONG)`,
  );
}

/** Runs a file-system call, turning ENAMETOOLONG into the refusal of an unsafe path. */
function holding<T>(shown: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') throw tooLong(shown);
    throw error;
  }
}

function lstatOrUndefined(path: string, shown: string): Stats | undefined {
  try {
    return holding(shown, () => lstatSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A repository folder the participant reads and writes (its root resolved once; nothing below it is followed). */
export class Workspace {
  /** The absolute, resolved root folder. */
  readonly root: string;

  constructor(root: string) {
    this.root = realpathSync(root);
  }

  /** Refuses a path the server would refuse (absolute, `..`, backslash, reserved folder), naming why. */
  checkPath(path: string, what = 'path'): void {
    const long = path.split('/').some((segment) => Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES);
    const problem =
      projectPathProblem(path) ?? (long ? `has a segment longer than ${MAX_SEGMENT_BYTES} bytes` : undefined);
    if (problem !== undefined) {
      const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
      throw new ParticipantError(ParticipantErrorCode.UnsafePath, `${what} ${JSON.stringify(shown)} ${problem}`);
    }
  }

  /**
   * lstat of every component of `segments` below the root: parents must be real folders, the last a regular file or
   * absent. A symbolic link anywhere is refused.
   */
  private stateOf(segments: readonly string[], shown: string): PathState {
    let current = this.root;
    for (let i = 0; i < segments.length; i++) {
      current = join(current, segments[i] as string);
      const stats = lstatOrUndefined(current, shown);
      const prefix = segments.slice(0, i + 1).join('/');
      if (stats === undefined) return { kind: 'missing' };
      if (stats.isSymbolicLink()) {
        throw new ParticipantError(
          ParticipantErrorCode.SymlinkRefused,
          `${prefix} is a symbolic link (in ${shown}); workspace paths are never followed through links`,
        );
      }
      const last = i === segments.length - 1;
      if (!last && !stats.isDirectory()) {
        throw new ParticipantError(ParticipantErrorCode.NotAFile, `${prefix} is not a folder (in ${shown})`);
      }
      if (last) {
        if (!stats.isFile())
          throw new ParticipantError(ParticipantErrorCode.NotAFile, `${shown} is not a regular file`);
        return { kind: 'file', stats };
      }
    }
    throw new ParticipantError(ParticipantErrorCode.UnsafePath, 'an empty path names no file');
  }

  /** What is at a workspace path (checked as checkPath does). */
  state(path: string): PathState {
    this.checkPath(path);
    return this.stateOf(path.split('/'), path);
  }

  /** The exact bytes at `path` (at most `maxBytes`), or undefined when nothing is there. */
  read(path: string, maxBytes: number): Buffer | undefined {
    this.checkPath(path);
    return this.readSegments(path.split('/'), path, maxBytes);
  }

  /** Writes `bytes` at `path` atomically, creating real folders as needed (never through a link). */
  write(path: string, bytes: Uint8Array): void {
    this.checkPath(path);
    this.writeSegments(path.split('/'), path, bytes);
  }

  /** Reads a file under the reserved `.rimthan/` folder (the session file), with the same link rules. */
  readState(name: string, maxBytes: number): Buffer | undefined {
    return this.readSegments(['.rimthan', name], `.rimthan/${name}`, maxBytes);
  }

  /** Writes a file under `.rimthan/` atomically. */
  writeState(name: string, bytes: Uint8Array): void {
    this.writeSegments(['.rimthan', name], `.rimthan/${name}`, bytes);
  }

  /** Removes a file under `.rimthan/` (nothing when absent). */
  removeState(name: string): void {
    const state = this.stateOf(['.rimthan', name], `.rimthan/${name}`);
    if (state.kind === 'file') rmSync(join(this.root, '.rimthan', name));
  }

  private readSegments(segments: readonly string[], shown: string, maxBytes: number): Buffer | undefined {
    const found = this.stateOf(segments, shown);
    if (found.kind === 'missing') return undefined;
    if (found.stats.size > maxBytes) {
      throw new ParticipantError(ParticipantErrorCode.ArtifactUnreadable, `${shown} is larger than ${maxBytes} bytes`);
    }
    const fd = holding(shown, () => openSync(join(this.root, ...segments), constants.O_RDONLY | constants.O_NOFOLLOW));
    try {
      const stats = fstatSync(fd);
      if (stats.ino !== found.stats.ino || stats.dev !== found.stats.dev || !stats.isFile()) {
        throw new ParticipantError(ParticipantErrorCode.NotAFile, `${shown} changed while it was read`);
      }
      const buffer = Buffer.alloc(Math.min(maxBytes, stats.size) + 1);
      let length = 0;
      for (;;) {
        const n = readSync(fd, buffer, length, buffer.length - length, null);
        if (n === 0) break;
        length += n;
        if (length > maxBytes) {
          throw new ParticipantError(
            ParticipantErrorCode.ArtifactUnreadable,
            `${shown} is larger than ${maxBytes} bytes`,
          );
        }
        if (length === buffer.length) break;
      }
      return buffer.subarray(0, length);
    } finally {
      closeSync(fd);
    }
  }

  private writeSegments(segments: readonly string[], shown: string, bytes: Uint8Array): void {
    let folder = this.root;
    for (let i = 0; i < segments.length - 1; i++) {
      folder = join(folder, segments[i] as string);
      const stats = lstatOrUndefined(folder, shown);
      const prefix = segments.slice(0, i + 1).join('/');
      if (stats === undefined) holding(shown, () => mkdirSync(folder));
      else if (stats.isSymbolicLink()) {
        throw new ParticipantError(
          ParticipantErrorCode.SymlinkRefused,
          `${prefix} is a symbolic link (in ${shown}); workspace paths are never followed through links`,
        );
      } else if (!stats.isDirectory()) {
        throw new ParticipantError(ParticipantErrorCode.NotAFile, `${prefix} is not a folder (in ${shown})`);
      }
    }
    this.stateOf(segments, shown); // the target itself: absent or a regular file, never a link
    const target = join(this.root, ...segments);
    const temp = join(folder, `.${segments[segments.length - 1] ?? 'file'}.${randomBytes(6).toString('hex')}.tmp`);
    const fd = holding(shown, () =>
      openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644),
    );
    try {
      let offset = 0;
      while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    try {
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
