/**
 * `rimthan registry test DIR [--workflow ID] [--min-coverage N] [--json]`: walks the route scenarios beside a source
 * folder through the engine (src/routes/) and prints each scenario's result, failures as `file:line: message`, and
 * every workflow's route coverage. Exit 1 when the source does not check, a scenario fails, or a workflow's coverage
 * is below --min-coverage (default 0: coverage is only reported).
 */
import { canonicalJson } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { formatProblem } from '../../registry/index.js';
import { formatRouteReport, testSource } from '../../routes/index.js';
import { parseCommand, positionals, intOption, optionDefault, stringOption } from '../args.js';
import { CommandFailed } from '../errors.js';
import { existingFolder } from '../files.js';
import type { CliIo } from '../io.js';
import { REGISTRY_TEST_OPTIONS } from './registry-test-options.js';

const TOPIC = 'registry test';

/** `registry test DIR`. */
export async function registryTest(argv: string[], io: CliIo): Promise<void> {
  const parsed = parseCommand(argv, REGISTRY_TEST_OPTIONS, TOPIC);
  const [dir = ''] = positionals(parsed, 1, 'one source folder: rimthan registry test DIR', TOPIC);
  const workflow = stringOption(parsed, 'workflow');
  const minCoverage =
    intOption(parsed, 'min-coverage', 0, 100, TOPIC) ?? Number(optionDefault(REGISTRY_TEST_OPTIONS, 'min-coverage'));
  const json = parsed.values['json'] === true;
  const outcome = await testSource(existingFolder(dir, io.cwd, 'a release source'), {
    ...(workflow === undefined ? {} : { workflow }),
    minCoverage,
  });
  if (outcome.kind === 'source_invalid') {
    for (const problem of outcome.problems) io.out(formatProblem(problem));
    const n = outcome.problems.length;
    io.err(`rimthan: ${n} problem${n === 1 ? '' : 's'} in ${dir}: fix them (rimthan registry check) before testing`);
    throw new CommandFailed('source_invalid', `${n} problems`, { reported: true });
  }
  if (outcome.kind === 'unknown_workflow') {
    throw new CommandFailed('not_found', `no workflow ${outcome.workflow} in release ${outcome.release}`);
  }
  const report = outcome.report;
  if (json) io.out(canonicalJson(report as unknown as JsonObject));
  else for (const line of formatRouteReport(report)) io.out(line);
  if (!report.ok) {
    const failed = report.scenarios.filter((s) => !s.ok).length + report.problems.length;
    const why = [
      ...(failed > 0 ? [`${failed} scenario${failed === 1 ? '' : 's'} failed`] : []),
      ...(report.below_minimum.length > 0 ? [`coverage below ${minCoverage}%`] : []),
    ];
    io.err(`rimthan: ${why.join('; ')} in ${dir}`);
    throw new CommandFailed('route_test_failed', why.join('; '), { reported: true });
  }
}
