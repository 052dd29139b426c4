/**
 * Finds and loads the scenarios of a source folder (`scenarios/<workflow-id>/<name>.yaml`): plain YAML with line
 * numbers (the registry's own parser), checked against the shipped scenario schema, the workflow folder matched, and
 * every fixture it names read from below its workflow folder. Every problem names the file and line to change.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { isKebabId, parseYaml } from '../registry/index.js';
import type { LoadedScenario, Scenario, ScenarioPath, ScenarioProblem } from './scenario.js';
import { checkScenarioShape } from './scenario-schema.js';

/** The folder beside a source that holds its scenarios. */
export const SCENARIOS_FOLDER = 'scenarios';
/** Largest scenario or fixture file (as large as a source file may be). */
export const MAX_SCENARIO_FILE_BYTES = 4 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface LoadedScenarios {
  readonly scenarios: readonly LoadedScenario[];
  readonly problems: readonly ScenarioProblem[];
}

function entries(dir: string): { name: string; dir: boolean; file: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .map((e) => ({ name: e.name, dir: e.isDirectory(), file: e.isFile() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * Loads the scenarios under `sourceDir/scenarios/`, only those of `workflow` when given. A folder without scenarios
 * has none (no problem).
 */
export function loadScenarios(sourceDir: string, workflow?: string): LoadedScenarios {
  const scenarios: LoadedScenario[] = [];
  const problems: ScenarioProblem[] = [];
  const root = join(sourceDir, SCENARIOS_FOLDER);
  for (const folder of entries(root)) {
    if (folder.name.startsWith('.') || (folder.file && folder.name === 'README.md')) continue;
    const rel = `${SCENARIOS_FOLDER}/${folder.name}`;
    if (!folder.dir || !isKebabId(folder.name)) {
      problems.push({ file: rel, line: 1, message: `only <workflow-id>/ folders belong in ${SCENARIOS_FOLDER}/` });
      continue;
    }
    if (workflow !== undefined && folder.name !== workflow) continue;
    for (const entry of entries(join(root, folder.name))) {
      const file = `${rel}/${entry.name}`;
      if (!entry.file || entry.name.startsWith('.')) continue;
      if (entry.name.endsWith('.yml')) {
        problems.push({ file, line: 1, message: 'a scenario file ends in .yaml' });
        continue;
      }
      if (!entry.name.endsWith('.yaml')) continue;
      if (!isKebabId(entry.name.slice(0, -'.yaml'.length))) {
        problems.push({ file, line: 1, message: 'a scenario file is named <kebab-case-name>.yaml' });
        continue;
      }
      const loaded = loadScenario(sourceDir, file, folder.name, problems);
      if (loaded !== undefined) scenarios.push(loaded);
    }
  }
  return { scenarios, problems };
}

/** Reads a file below `base` without following a symbolic link anywhere below it; a problem string when it cannot. */
function readBelow(base: string, rel: string): Buffer | string {
  let path = base;
  for (const segment of rel.split('/')) {
    path = join(path, segment);
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return 'does not exist';
    }
    if (stats.isSymbolicLink()) return 'is a symbolic link (not followed)';
  }
  const stats = lstatSync(path);
  if (!stats.isFile()) return 'is not a file';
  if (stats.size > MAX_SCENARIO_FILE_BYTES) return `is larger than ${MAX_SCENARIO_FILE_BYTES} bytes`;
  if (!realpathSync(path).startsWith(realpathSync(base) + sep)) return 'is outside the scenario folder';
  return readFileSync(path);
}

function loadScenario(
  sourceDir: string,
  file: string,
  folder: string,
  problems: ScenarioProblem[],
): LoadedScenario | undefined {
  const bytes = readBelow(sourceDir, file);
  if (typeof bytes === 'string') {
    problems.push({ file, line: 1, message: `the scenario file ${bytes}` });
    return undefined;
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    problems.push({ file, line: 1, message: 'the scenario file is not UTF-8 text' });
    return undefined;
  }
  const parsed = parseYaml(text);
  if (!parsed.ok) {
    for (const e of parsed.errors) problems.push({ file, line: e.line, message: e.message });
    return undefined;
  }
  const lineOf = (path: ScenarioPath): number => parsed.doc.lineOf(path);
  const data = parsed.doc.value;
  const verdict = checkScenarioShape(data);
  if (verdict !== undefined) {
    problems.push({ file, line: lineOf(verdict.path), message: verdict.message });
    return undefined;
  }
  const scenario = data as Scenario;
  if (scenario.workflow !== folder) {
    problems.push({
      file,
      line: lineOf(['workflow']),
      message: `workflow ${scenario.workflow} is not the folder's workflow (${folder}): move the file to ${SCENARIOS_FOLDER}/${scenario.workflow}/`,
    });
    return undefined;
  }
  const fixtures = new Map<string, Buffer>();
  const base = join(sourceDir, SCENARIOS_FOLDER, folder);
  let missing = false;
  const fixture = (rel: string, path: ScenarioPath): void => {
    if (fixtures.has(rel)) return;
    const read = readBelow(base, rel);
    if (typeof read === 'string') {
      problems.push({ file, line: lineOf(path), message: `fixture ${rel} ${read}` });
      missing = true;
    } else fixtures.set(rel, read);
  };
  scenario.steps.forEach((step, i) => {
    for (const [id, rel] of Object.entries(step.artifacts ?? {})) fixture(rel, ['steps', i, 'artifacts', id]);
    (step.refused ?? []).forEach((r, j) => fixture(r.fixture, ['steps', i, 'refused', j, 'fixture']));
    (step.revised ?? []).forEach((revision, k) => {
      for (const [id, rel] of Object.entries(revision)) fixture(rel, ['steps', i, 'revised', k, id]);
    });
  });
  return missing ? undefined : { file, scenario, fixtures, lineOf };
}
