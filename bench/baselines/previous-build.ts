/**
 * An earlier Rimthan, built from a Git revision of this repository in the same run, as the baseline of a suite that
 * compares what Rimthan itself does (the hosts suite): `git archive REV` into a temporary folder, this checkout's
 * node_modules linked in, and the server built with tsc (src only). Returns the built `rimthan` executable.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package/index.js';

export interface PreviousBuild {
  readonly revision: string;
  /** The revision's `dist/src/cli/main.js`. */
  readonly main: string;
}

/** Builds `revision` below `folder`; throws with git's or tsc's words when it cannot. */
export function buildRevision(revision: string, folder: string): PreviousBuild {
  const root = packageRoot();
  const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', `${revision}^{commit}`], {
    encoding: 'utf8',
  }).trim();
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
