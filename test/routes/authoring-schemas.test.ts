/**
 * The authoring JSON Schemas editors use (schemas/authoring/): the files the package ships are exactly what
 * scripts/write-authoring-schemas.mjs writes; they accept every packaged source file and scenario under releases/src/;
 * and every shape-level mistake `registry check` refuses (an unknown key, a wrong type, a missing key, an id that is
 * not kebab-case) they refuse too, so an editor flags what the check would.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajv2020 } from '../../src/core/schema.js';
import { packageRoot } from '../../src/package/index.js';
import { checkSource, parseYaml } from '../../src/registry/index.js';
import {
  AUTHORING_SCHEMA_DIR,
  AUTHORING_SCHEMAS,
  authoringSchemaTexts,
  loadScenarios,
} from '../../src/routes/index.js';
import { edit } from './support.js';

const ROOT = packageRoot();
const SOURCES = join(ROOT, 'releases', 'src');
const LIBRARY = join(SOURCES, 'library');

const compiled = new Map<string, ValidateFunction>();
function schema(name: string): ValidateFunction {
  let validate = compiled.get(name);
  if (validate === undefined) {
    const Ajv = ajv2020();
    const doc = AUTHORING_SCHEMAS[name];
    assert.ok(doc !== undefined, `no schema ${name}`);
    validate = new Ajv({ strict: true, allErrors: true }).compile(doc);
    compiled.set(name, validate);
  }
  return validate;
}

/** The schema file that describes a source file, by its place in the layout. */
function schemaFor(rel: string): string | undefined {
  if (rel === 'registry.yaml') return 'registry.schema.json';
  if (/^workflows\/[^/]+\.yaml$/.test(rel)) return 'workflow.schema.json';
  if (/^validators\/[^/]+\.yaml$/.test(rel)) return 'validator.schema.json';
  if (/^assets\/subagent\/[^/]+\.md$/.test(rel)) return 'subagent.schema.json';
  if (/^assets\/host-adapter\/[^/]+\.md$/.test(rel)) return 'host-adapter.schema.json';
  if (/^assets\/[a-z-]+\/[^/]+\.md$/.test(rel)) return 'asset.schema.json';
  if (/^scenarios\/[^/]+\/[^/]+\.yaml$/.test(rel)) return 'scenario.schema.json';
  return undefined;
}

/** The YAML data of a source file: the whole file, or a Markdown asset's frontmatter. */
function dataOf(path: string): unknown {
  let text = readFileSync(path, 'utf8');
  if (path.endsWith('.md')) {
    const lines = text.split('\n');
    const close = lines.indexOf('---', 1);
    assert.ok(lines[0] === '---' && close > 0, `${path} opens with frontmatter`);
    text = lines.slice(1, close).join('\n');
  }
  const parsed = parseYaml(text);
  assert.ok(parsed.ok, `${path} parses`);
  return parsed.doc.value;
}

function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path) : [path];
  });
}

describe('the authoring schemas', () => {
  test('the files in schemas/authoring/ are exactly what scripts/write-authoring-schemas.mjs writes', () => {
    const dir = join(ROOT, AUTHORING_SCHEMA_DIR);
    const texts = authoringSchemaTexts();
    const onDisk = readdirSync(dir).filter((n) => n.endsWith('.schema.json'));
    assert.deepEqual(onDisk.sort(), [...texts.keys()].sort(), 'run node scripts/write-authoring-schemas.mjs');
    for (const [name, text] of texts) {
      assert.equal(
        readFileSync(join(dir, name), 'utf8'),
        text,
        `${name}: run node scripts/write-authoring-schemas.mjs`,
      );
    }
    assert.deepEqual(
      [...texts.keys()].sort(),
      [
        'asset.schema.json',
        'host-adapter.schema.json',
        'registry.schema.json',
        'scenario.schema.json',
        'subagent.schema.json',
        'validator.schema.json',
        'workflow.schema.json',
      ],
      'one schema per authoring file kind',
    );
  });

  test('accept every packaged source file and scenario under releases/src/', () => {
    let checked = 0;
    const refused: string[] = [];
    for (const source of readdirSync(SOURCES)) {
      for (const path of filesBelow(join(SOURCES, source))) {
        const rel = relative(join(SOURCES, source), path).split('\\').join('/');
        if (rel.includes('/fixtures/')) continue;
        const name = schemaFor(rel);
        if (name === undefined) continue;
        const validate = schema(name);
        if (!validate(dataOf(path))) refused.push(`${source}/${rel}: ${JSON.stringify(validate.errors?.[0])}`);
        checked++;
      }
    }
    assert.deepEqual(refused, []);
    assert.ok(checked > 150, `checked ${checked} files`);
  });
});

/** One shape mistake: where, the text edit, the problem code `registry check` reports, the schema that must refuse. */
interface Mistake {
  readonly name: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly code: string;
}

const WORKFLOW = 'workflows/review-change@1.0.0.yaml';
const VALIDATOR = 'validators/review-grounding@1.0.0.yaml';
const INSTRUCTION = 'assets/instruction/review-change-map@1.0.0.md';
const SUBAGENT = 'assets/subagent/workflow-validator@1.0.0.md';
const ADAPTER = 'assets/host-adapter/codex-host@2.0.0.md';

const MISTAKES: readonly Mistake[] = [
  {
    name: 'an unknown workflow key',
    file: WORKFLOW,
    from: 'title: Review a change\n',
    to: 'title: Review a change\nowner: platform\n',
    code: 'unknown_key',
  },
  {
    name: 'an unknown step key',
    file: WORKFLOW,
    from: '    next: map-change\n',
    to: '    next: map-change\n    timeout: 30\n',
    code: 'unknown_key',
  },
  {
    name: 'a title that is not a string',
    file: WORKFLOW,
    from: 'title: Review a change\n',
    to: 'title: [Review, a, change]\n',
    code: 'invalid_type',
  },
  {
    name: 'steps that are not a list',
    file: WORKFLOW,
    from: 'start_step: setup-workspace\nsteps:\n',
    to: 'start_step: setup-workspace\nsteps: 3\nold_steps:\n',
    code: 'invalid_type',
  },
  {
    name: 'a step id that is not kebab-case',
    file: WORKFLOW,
    from: '  - id: review\n',
    to: '  - id: Review_Step\n',
    code: 'invalid_id',
  },
  {
    name: 'an alias that is not kebab-case',
    file: WORKFLOW,
    from: '  - code-review\n',
    to: '  - Code Review\n',
    code: 'invalid_id',
  },
  { name: 'a missing step title', file: WORKFLOW, from: '    title: Map the change\n', to: '', code: 'missing_key' },
  {
    name: 'an unknown media type',
    file: WORKFLOW,
    from: '        path: work/review-change/change-overview.md\n        media_type: text/markdown\n',
    to: '        path: work/review-change/change-overview.md\n        media_type: text/html\n',
    code: 'invalid_value',
  },
  {
    name: 'an unknown validator key',
    file: VALIDATOR,
    from: 'required: true\n',
    to: 'required: true\nseverity: high\n',
    code: 'unknown_key',
  },
  {
    name: 'required that is not a boolean',
    file: VALIDATOR,
    from: 'required: true\n',
    to: 'required: "yes"\n',
    code: 'invalid_type',
  },
  {
    name: 'an unknown validator capability',
    file: VALIDATOR,
    from: '  - workspace.read\n',
    to: '  - shell.exec\n',
    code: 'invalid_value',
  },
  {
    name: 'an input artifact id that is not kebab-case',
    file: VALIDATOR,
    from: '  - change-map\n',
    to: '  - Change Map\n',
    code: 'invalid_id',
  },
  {
    name: 'an unknown registry key',
    file: 'registry.yaml',
    from: 'release: library-2026.12.1',
    to: 'release: library-2026.12.1\nchannel: stable',
    code: 'unknown_key',
  },
  {
    name: 'a registry id that is not kebab-case',
    file: 'registry.yaml',
    from: 'registry_id: rimthan-packaged',
    to: 'registry_id: Rimthan_Packaged',
    code: 'invalid_id',
  },
  {
    name: 'subagent keys on an instruction',
    file: INSTRUCTION,
    from: '---\n\n',
    to: 'read_only: true\n---\n\n',
    code: 'unknown_key',
  },
  {
    name: 'read_only that is not a boolean',
    file: SUBAGENT,
    from: 'read_only: true\n',
    to: 'read_only: yes please\n',
    code: 'invalid_type',
  },
  {
    name: 'an unknown harness',
    file: ADAPTER,
    from: 'compatible_harnesses: [codex]\n',
    to: 'compatible_harnesses: [codex, vim]\n',
    code: 'invalid_value',
  },
  {
    name: 'an adapter contract without delivery',
    file: ADAPTER,
    from: '  delivery:\n    prompt: [dynamic-context]\n    skill: [dynamic-context, project-local]\n    subagent: [dynamic-context, project-local]\n',
    to: '',
    code: 'missing_key',
  },
];

describe('the authoring schemas refuse what registry check refuses at the shape level', () => {
  const root = mkdtempSync(join(tmpdir(), 'rimthan-authoring-schemas-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  MISTAKES.forEach((mistake, i) => {
    test(`${mistake.name} (${mistake.code})`, () => {
      const dir = join(root, String(i));
      cpSync(LIBRARY, dir, { recursive: true });
      const line = edit(dir, mistake.file, mistake.from, mistake.to);
      const checked = checkSource(dir);
      assert.equal(checked.ok, false, 'registry check refuses the source');
      const here = checked.problems.filter((p) => p.file === mistake.file && p.code === mistake.code);
      assert.ok(
        here.length > 0,
        `registry check reports ${mistake.code} in ${mistake.file}: ${JSON.stringify(checked.problems)}`,
      );
      assert.ok(
        here.some((p) => Math.abs(p.line - line) <= 2 || mistake.to === ''),
        `the problem points near line ${line}: ${JSON.stringify(here)}`,
      );
      const name = schemaFor(mistake.file);
      assert.ok(name !== undefined);
      assert.equal(schema(name)(dataOf(join(dir, mistake.file))), false, `${name} refuses it too`);
    });
  });

  test('an unknown scenario key is refused by the scenario schema and by registry test, at its line', () => {
    const dir = join(root, 'scenario');
    cpSync(LIBRARY, dir, { recursive: true });
    const file = 'scenarios/review-change/rate-limit-request-changes.yaml';
    const line = edit(dir, file, 'end: completed', 'end: completed\ntimeout: 60');
    const loaded = loadScenarios(dir, 'review-change');
    assert.deepEqual(
      loaded.problems.map((p) => `${p.file}:${p.line}`),
      [`${file}:${line + 1}`],
    );
    assert.match(loaded.problems[0]?.message ?? '', /unknown key "timeout"/);
    assert.equal(schema('scenario.schema.json')(dataOf(join(dir, file))), false);
  });
});
