/**
 * Git for the example flows: `git` run with an argument array (never a shell), a time limit, a cap on its output and
 * the vertex's abort signal. Failures are RimthanErrors with a code only: git's own stderr can hold paths and refs
 * from the input, and a vertex's error reaches history as its code.
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { RimthanError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/error-codes.js';

const GIT_TIMEOUT_MS = 20_000;
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** Runs `git -C dir ...args` and returns its stdout; `failure` is the code of a non-zero exit. */
export function git(dir: string, args: readonly string[], failure: ErrorCode, signal?: AbortSignal): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      ['-C', dir, ...args],
      {
        encoding: 'utf8',
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: MAX_OUTPUT_BYTES,
        ...(signal === undefined ? {} : { signal }),
        // No prompt for credentials, no pager, no localised output, no user or system config surprises in parsing.
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' },
      },
      (error, stdout) => {
        if (error === null) {
          resolvePromise(stdout);
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') reject(new RimthanError('git_unavailable', 'git is not installed or not on PATH'));
        else if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          reject(new RimthanError('git_output_too_large', 'git said too much'));
        else if (error.name === 'AbortError') reject(new RimthanError('aborted', 'git was stopped'));
        else reject(new RimthanError(failure, `git ${args[0] ?? ''} failed`));
      },
    );
  });
}

/**
 * The top folder of the Git work tree at `repository` (relative to `workspace`), which must lie inside `workspace`
 * after symbolic links are resolved: a flow started over MCP reads and writes only below the folder the server was
 * started for.
 */
export async function workTreeIn(workspace: string, repository: string, signal?: AbortSignal): Promise<string> {
  if (isAbsolute(repository) || repository.split(/[\\/]/).includes('..')) {
    throw new RimthanError('outside_workspace', 'repository must be a relative path inside the workspace');
  }
  const base = await realpath(workspace);
  let dir: string;
  try {
    dir = await realpath(resolve(base, repository));
  } catch {
    throw new RimthanError('repository_not_found', 'the repository folder does not exist');
  }
  const top = await realpath((await git(dir, ['rev-parse', '--show-toplevel'], 'not_a_git_repository', signal)).trim());
  const inside = relative(base, top);
  if (inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    throw new RimthanError('outside_workspace', 'the repository work tree reaches outside the workspace');
  }
  return top;
}
