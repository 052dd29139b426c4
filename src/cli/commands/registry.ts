/**
 * `rimthan registry check|build|graph`: the authoring loop. `check` prints every problem as `file:line: code: message`
 * (stdout) and fails when there is one; `build` writes the canonical release file and refuses to change an existing
 * release file (releases are immutable); `graph` prints Mermaid flowcharts of a source folder or a release file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  buildRelease,
  checkSource,
  compareVersions,
  formatProblem,
  serializeReleaseFile,
  verifyReleaseFile,
  workflowMermaid,
} from '../../registry/index.js';
import type { Problem, Release, WorkflowDefinition } from '../../registry/index.js';
import { createExclusiveFile, existingFolder, existingPath } from '../files.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import { CommandFailed, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { REGISTRY_BUILD_OPTIONS, REGISTRY_CHECK_OPTIONS, REGISTRY_GRAPH_OPTIONS } from './registry-options.js';

function reportProblems(problems: readonly Problem[], io: CliIo, dir: string): never {
  for (const problem of problems) io.out(formatProblem(problem));
  const n = problems.length;
  io.err(`rimthan: ${n} problem${n === 1 ? '' : 's'} in ${dir}`);
  throw new CommandFailed('source_invalid', `${n} problems`, { reported: true });
}

/** `registry check DIR`. */
export function registryCheck(argv: string[], io: CliIo): Promise<void> {
  return Promise.resolve().then(() => check(argv, io));
}

function check(argv: string[], io: CliIo): void {
  const parsed = parseCommand(argv, REGISTRY_CHECK_OPTIONS, 'registry check');
  const [dir = ''] = positionals(parsed, 1, 'one source folder: rimthan registry check DIR', 'registry check');
  const result = checkSource(existingFolder(dir, io.cwd, 'a release source'));
  if (!result.ok) reportProblems(result.problems, io, dir);
  const r = result.release;
  io.out(
    `ok: ${dir} compiles to release ${r.release} (${r.workflows.length} workflow${r.workflows.length === 1 ? '' : 's'}, manifest ${r.manifest_sha256})`,
  );
}

/** `registry build DIR --out FILE`. */
export function registryBuild(argv: string[], io: CliIo): Promise<void> {
  return Promise.resolve().then(() => build(argv, io));
}

function build(argv: string[], io: CliIo): void {
  const topic = 'registry build';
  const parsed = parseCommand(argv, REGISTRY_BUILD_OPTIONS, topic);
  const [dir = ''] = positionals(parsed, 1, 'one source folder: rimthan registry build DIR --out FILE', topic);
  const out = stringOption(parsed, 'out');
  if (out === undefined) throw new UsageError('--out FILE is required', topic);
  const result = buildRelease(existingFolder(dir, io.cwd, 'a release source'));
  if (!result.ok) reportProblems(result.problems, io, dir);
  const bytes = serializeReleaseFile(result.file);
  const written = createExclusiveFile(resolve(io.cwd, out), bytes);
  if (written === 'differs') {
    throw new CommandFailed(
      'release_immutable',
      `${out} already exists with different content (release files are immutable)`,
    );
  }
  const verb = written === 'created' ? 'wrote' : 'unchanged:';
  io.err(`rimthan: ${verb} ${out} (release ${result.file.manifest.release}, manifest ${result.file.manifest_sha256})`);
}

function releaseFrom(path: string, io: CliIo): Release {
  const { absolute, isDir } = existingPath(path, io.cwd);
  if (isDir) {
    const result = checkSource(absolute);
    if (!result.ok) reportProblems(result.problems, io, path);
    return result.release;
  }
  const verified = verifyReleaseFile(readFileSync(absolute));
  if (!verified.ok)
    throw new CommandFailed('release_invalid', `${path} is not a valid release file (${verified.reason})`);
  return verified.release;
}

function selectWorkflows(release: Release, wanted: string | undefined): WorkflowDefinition[] {
  if (wanted === undefined) return [...release.workflows];
  const [id, version] = wanted.split('@');
  const matching = release.workflows
    .filter((w) => w.id === id && (version === undefined || w.version === version))
    .sort((a, b) => compareVersions(b.version, a.version));
  const newest = matching[0];
  if (newest === undefined) throw new CommandFailed('not_found', `no workflow ${wanted} in release ${release.release}`);
  return [newest];
}

/** `registry graph DIR|FILE [--workflow ID[@VERSION]]`. */
export function registryGraph(argv: string[], io: CliIo): Promise<void> {
  return Promise.resolve().then(() => graph(argv, io));
}

function graph(argv: string[], io: CliIo): void {
  const topic = 'registry graph';
  const parsed = parseCommand(argv, REGISTRY_GRAPH_OPTIONS, topic);
  const [path = ''] = positionals(
    parsed,
    1,
    'one source folder or release file: rimthan registry graph DIR|FILE',
    topic,
  );
  const release = releaseFrom(path, io);
  const workflows = selectWorkflows(release, stringOption(parsed, 'workflow'));
  const single = workflows.length === 1;
  for (const workflow of workflows) {
    if (!single) io.out(`%% ${workflow.id}@${workflow.version}`);
    io.out(workflowMermaid(workflow));
  }
}
