/**
 * `rimthan serve --source DIR`: the authoring inner loop. The source folder is built into a development release
 * (`<release>-dev.<digest8>`, registry/build.ts) published to a folder store of its own under the state directory, and
 * made active; a watcher rebuilds it on every change (debounced). A build that does not check keeps the last good one
 * serving (none at first: the service is not ready until the source checks) and prints its problems as file:line on
 * stderr. Every build stays in the store under its own name, so a
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
import { reasonOf } from './errors.js';
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
 * Builds `source` (a folder, relative to the working directory) into the development store of that folder and
 * activates the build. A source that does not check prints its problems and serves nothing until an edit fixes it.
 */
export function openSourceStore(source: string, io: CliIo): SourceServing {
  const dir = existingFolder(source, io.cwd, 'a release source', `--source ${source}`);
  const storeDir = join(rimthanStateDirectory(io.env), 'dev-releases', sha256Hex(dir).slice(0, 16));
  mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const store = new FolderReleaseStore(storeDir);
  let current: string | undefined;
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  /** Builds and activates; true when a new build is now served. */
  const build = (): boolean => {
    const built = buildDevRelease(dir);
    if (!built.ok) {
      printProblems(io, built.problems);
      const n = built.problems.length;
      const serving = current === undefined ? 'nothing served until it checks' : `still serving ${current}`;
      io.err(`rimthan: ${n} problem${n === 1 ? '' : 's'} in ${source}: ${serving}`);
      return false;
    }
    const release = built.file.manifest.release;
    if (release === current) return false;
    try {
      store.publish(built.file);
      store.activate(release);
    } catch (error) {
      const serving = current === undefined ? 'nothing served yet' : `still serving ${current}`;
      io.err(`rimthan: cannot store the build of ${source}: ${reasonOf(error)}; ${serving}`);
      return false;
    }
    const previous = current;
    current = release;
    io.err(
      previous === undefined
        ? `rimthan: serving ${source} as release ${release} (rebuilt on every change; development store ${storeDir})`
        : `rimthan: rebuilt ${source}: serving ${release} (sessions on ${previous} keep resuming on it)`,
    );
    return true;
  };
  build();
  return {
    store,
    watch(follower) {
      watcher = watch(dir, { recursive: true, persistent: false }, () => {
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          if (!closed && build()) void follower.refresh();
        }, SOURCE_REBUILD_DEBOUNCE_MS);
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
