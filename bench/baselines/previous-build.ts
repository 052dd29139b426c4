/**
 * An earlier Rimthan, built from a Git revision of this repository in the same run, as the baseline of a suite that
 * compares what Rimthan itself does (the hosts and regress suites): `git archive REV` into a temporary folder, this
 * checkout's node_modules linked in, and the server built with tsc (src only). Returns the built `rimthan` executable.
 * `cachedBuild` keeps one build per commit under os.tmpdir() so a second run of a suite does not build again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package/index.js';

export interface PreviousBuild {
  readonly revision: string;
  /** The revision's `dist/src/cli/main.js`. */
  readonly main: string;
}

/** The abbreviated commit `revision` names in this repository; throws with git's words when it names none. */
export function resolveCommit(revision: string): string {
  return execFileSync('git', ['-C', packageRoot(), 'rev-parse', '--short', `${revision}^{commit}`], {
    encoding: 'utf8',
  }).trim();
}

/** Builds `revision` below `folder`; throws with git's or tsc's words when it cannot. */
export function buildRevision(revision: string, folder: string): PreviousBuild {
  const root = packageRoot();
  const commit = resolveCommit(revision);
  const tree = join(folder, `rimthan-${commit}`);
  mkdirSync(tree, { recursive: true });
  const archive = execFileSync('git', ['-C', root, 'archive', commit], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'));
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: tree,
      stdio: 'pipe',
    },
  );
  return { revision: commit, main: join(tree, 'dist', 'src', 'cli', 'main.js') };
}

/** Like buildRevision, in `<tmpdir>/rimthan-bench-builds`, reusing a finished build of the same commit. */
export function cachedBuild(revision: string): PreviousBuild {
  const commit = resolveCommit(revision);
  const folder = join(tmpdir(), 'rimthan-bench-builds');
  const tree = join(folder, `rimthan-${commit}`);
  const marker = join(tree, '.rimthan-bench-built');
  if (existsSync(marker)) return { revision: commit, main: join(tree, 'dist', 'src', 'cli', 'main.js') };
  rmSync(tree, { recursive: true, force: true });
  const build = buildRevision(commit, folder);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return build;
}
