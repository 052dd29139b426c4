/**
 * `rimthan serve --source DIR`: the authoring inner loop. The source folder is built into a development release
 * (`<release>-dev.<digest8>`, registry/build.ts) published to a folder store of its own under the state directory, and
 * made active; a watcher rebuilds it on every change (debounced). A build that does not check keeps the last good one
 * serving and prints its problems as file:line on stderr. Every build stays in the store under its own name, so a
 * session started on one build keeps resuming on it after later rebuilds.
 */
import { mkdirSync, watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../core/index.js';
import { rimthanStateDirectory } from '../mcp/server/signing-key.js';
import { buildDevRelease } from '../registry/build.js';
import { formatProblem } from '../registry/problems.js';
import type { Problem } from '../registry/problems.js';
import { FolderReleaseStore } from '../registry/store/index.js';
import type { ReleaseFollower } from '../registry/store/index.js';
import { CommandFailed, reasonOf } from './errors.js';
import { existingFolder } from './files.js';
import type { CliIo } from './io.js';

/** How long the watcher waits after the last change before it rebuilds (an editor's save is several events). */
export const SOURCE_REBUILD_DEBOUNCE_MS = 150;

/** A source folder served as development builds. */
export interface SourceServing {
  readonly store: FolderReleaseStore;
  /** Starts rebuilding on change; the follower is told at once about each new build. */
  watch(follower: ReleaseFollower): void;
  close(): void;
}

function printProblems(io: CliIo, problems: readonly Problem[]): void {
  for (const problem of problems) io.err(`rimthan: ${formatProblem(problem)}`);
}

/**
 * Builds `source` (a folder, relative to the working directory), publishes the build to the development store of that
 * folder and activates it; a source that does not check is a failure with its problems printed.
 */
export function openSourceStore(source: string, io: CliIo): SourceServing {
  const dir = existingFolder(source, io.cwd, 'a release source', `--source ${source}`);
  const storeDir = join(rimthanStateDirectory(io.env), 'dev-releases', sha256Hex(dir).slice(0, 16));
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const store = new FolderReleaseStore(storeDir);
  const first = buildDevRelease(dir);
  if (!first.ok) {
    printProblems(io, first.problems);
    const n = first.problems.length;
    throw new CommandFailed(
      'source_invalid',
      `--source ${source}: ${n} problem${n === 1 ? '' : 's'} (fix them, then start again; rimthan registry check ${source})`,
    );
  }
  let current = first.file.manifest.release;
  store.publish(first.file);
  store.activate(current);
  io.err(`rimthan: serving ${source} as release ${current} (rebuilt on every change; development store ${storeDir})`);

  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const rebuild = (follower: ReleaseFollower): void => {
    timer = undefined;
    if (closed) return;
    const built = buildDevRelease(dir);
    if (!built.ok) {
      printProblems(io, built.problems);
      const n = built.problems.length;
      io.err(`rimthan: ${n} problem${n === 1 ? '' : 's'} in ${source}: still serving ${current}`);
      return;
    }
    const release = built.file.manifest.release;
    if (release === current) return;
    const previous = current;
    try {
      store.publish(built.file);
      store.activate(release);
    } catch (error) {
      io.err(`rimthan: cannot store the build of ${source}: ${reasonOf(error)}; still serving ${current}`);
      return;
    }
    current = release;
    io.err(`rimthan: rebuilt ${source}: serving ${release} (sessions on ${previous} keep resuming on it)`);
    void follower.refresh();
  };
  return {
    store,
    watch(follower) {
      watcher = watch(dir, { recursive: true, persistent: false }, () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => rebuild(follower), SOURCE_REBUILD_DEBOUNCE_MS);
      });
      watcher.on('error', () => undefined);
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      watcher?.close();
    },
  };
}
