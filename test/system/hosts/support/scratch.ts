/**
 * The scratch world a host runs in: an empty HOME of its own (so nothing of the machine's user leaks in or out) and a
 * Git repository holding the scenario's files, committed, as a person's project would be.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Scratch {
  readonly root: string;
  readonly home: string;
  readonly repo: string;
  /** Runs git in the repository as the project's author. */
  git(...args: string[]): void;
  remove(): void;
}

export function makeScratch(prefix: string, files: Readonly<Record<string, string>>): Scratch {
  const root = mkdtempSync(join(tmpdir(), `rimthan-${prefix}-`));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(repo, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  const git = (...args: string[]): void => {
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'ignore',
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: home,
        GIT_AUTHOR_NAME: 'Billing Team',
        GIT_AUTHOR_EMAIL: 'billing@example.org',
        GIT_COMMITTER_NAME: 'Billing Team',
        GIT_COMMITTER_EMAIL: 'billing@example.org',
      },
    });
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'Billing service');
  return { root, home, repo, git, remove: () => rmSync(root, { recursive: true, force: true }) };
}
