/**
 * `rimthan registry init DIR --workflow ID`: writes a new release source folder for one workflow from the package's
 * templates and the packaged library's shared parts (registry/scaffold/). It never touches an existing file: DIR must
 * not exist yet or be empty. Prints each file it wrote and what to run next.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isInitWorkflowId, MAX_INIT_WORKFLOW_ID, scaffoldSource } from '../../registry/scaffold/init-source.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { REGISTRY_INIT_OPTIONS } from './registry-options.js';

const TOPIC = 'registry init';

/** Refuses a DIR that exists as a file or holds anything. */
function emptyOrMissing(dir: string, shown: string): void {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory())
      throw new CommandFailed('conflict', `${shown} is not a folder (a new release source is a folder)`);
    entries = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (entries.length > 0) {
    throw new CommandFailed('conflict', `${shown} is not empty: registry init writes a new source folder`);
  }
}

/** `registry init DIR --workflow ID`. */
export function registryInit(argv: string[], io: CliIo): Promise<void> {
  return Promise.resolve().then(() => init(argv, io));
}

function init(argv: string[], io: CliIo): void {
  const parsed = parseCommand(argv, REGISTRY_INIT_OPTIONS, TOPIC);
  const [dir = ''] = positionals(parsed, 1, 'one folder to create: rimthan registry init DIR --workflow ID', TOPIC);
  const workflow = stringOption(parsed, 'workflow');
  if (workflow === undefined) throw new UsageError('--workflow ID is required', TOPIC);
  if (!isInitWorkflowId(workflow)) {
    throw new UsageError(
      `--workflow ${JSON.stringify(workflow).slice(0, 80)} is not a kebab-case id of at most ${MAX_INIT_WORKFLOW_ID} characters (lowercase letters and digits in words joined by single hyphens, starting with a letter)`,
      TOPIC,
    );
  }
  const target = resolve(io.cwd, dir);
  emptyOrMissing(target, dir);
  const scaffold = scaffoldSource(workflow, target);
  for (const file of scaffold.files) {
    const path = join(target, ...file.rel.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.text, { flag: 'wx' });
    io.out(join(dir, file.rel));
  }
  io.err(
    `rimthan: wrote ${scaffold.files.length} files in ${dir}: workflow ${workflow}@0.1.0, release ${scaffold.release} (shared host adapters and validator subagent from ${scaffold.sharedFrom})`,
  );
  io.err(`rimthan: next: rimthan registry check ${dir} && rimthan registry test ${dir}`);
}
