/**
 * Real Git for handoff tests: a bare repository standing in for the team's remote, clones made by named people, and
 * commands run with no system or global configuration (no hooks, signing or templates of the machine leak in).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface GitResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function gitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, 'no-global-gitconfig'),
    GIT_TERMINAL_PROMPT: '0',
  };
}

/** A team's Git remote in `root` (a bare repository with branch main) and the clones people make of it. */
export class GitRemote {
  readonly origin: string;

  constructor(readonly root: string) {
    this.origin = join(root, 'origin.git');
    mkdirSync(root, { recursive: true });
    this.run(root, ['init', '--quiet', '--bare', '--initial-branch=main', this.origin]);
  }

  /** Runs git in `cwd`; fails the test unless it succeeds (or `allowFailure`). */
  run(cwd: string, args: readonly string[], opts: { allowFailure?: boolean } = {}): GitResult {
    const r = spawnSync('git', args, { cwd, env: gitEnv(this.root), encoding: 'utf8' });
    const result = { status: r.status, stdout: r.stdout, stderr: r.stderr };
    if (opts.allowFailure !== true) assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return result;
  }

  /** A clone of the remote in `root/<dir>`, committing as `name` (at `commit` when given, else the tip of main). */
  clone(dir: string, name: string, commit?: string): string {
    const path = join(this.root, dir);
    this.run(this.root, ['clone', '--quiet', this.origin, path]);
    this.run(path, ['config', 'user.name', name]);
    this.run(path, ['config', 'user.email', `${name.toLowerCase()}@example.org`]);
    if (commit !== undefined) this.run(path, ['checkout', '--quiet', '-B', 'main', commit]);
    return path;
  }

  /** `git add -A`, commit with `message`, and (unless told not to) push to main; returns the new commit. */
  commitAll(clone: string, message: string, opts: { push?: boolean } = {}): string {
    this.run(clone, ['add', '-A']);
    this.run(clone, ['commit', '--quiet', '-m', message]);
    if (opts.push !== false) this.run(clone, ['push', '--quiet', 'origin', 'HEAD:main']);
    return this.run(clone, ['rev-parse', 'HEAD']).stdout.trim();
  }

  /** The files Git tracks in a clone. */
  tracked(clone: string): string[] {
    return this.run(clone, ['ls-files'])
      .stdout.split('\n')
      .filter((l) => l.length > 0);
  }
}
