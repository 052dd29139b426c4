/** The authoring format is closed and strictly parsed; every problem names the file and line to fix. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkSource, formatProblem } from '../../../src/registry/index.js';
import { VALIDATOR, WORKFLOW, edit, put, withMinimalCopy, expectProblem } from '../helpers.js';

const W = WORKFLOW;
const REPORT_SCHEMA = 'schemas/report@1.0.0.json';

describe('closed authoring format', () => {
  test('an unknown workflow key is refused at its line', () => {
    expectProblem(
      (d) => edit(d, W, 'title: Minimal workflow\n', 'title: Minimal workflow\ncolour: blue\n'),
      'unknown_key',
      W,
      'colour: blue',
    );
  });

  test('an unknown step key is refused at its line', () => {
    expectProblem(
      (d) => edit(d, W, '    title: Polish\n', '    title: Polish\n    timeout: 5\n'),
      'unknown_key',
      W,
      'timeout: 5',
    );
  });

  test('an unknown frontmatter key is refused at its line (frontmatter lines count from the file top)', () => {
    expectProblem(
      (d) => edit(d, 'assets/prompt/kickoff@1.0.0.md', 'title: Kickoff\n', 'title: Kickoff\nauthor: me\n'),
      'unknown_key',
      'assets/prompt/kickoff@1.0.0.md',
      3,
    );
  });

  test('a missing required key is refused', () => {
    expectProblem((d) => edit(d, VALIDATOR, 'title: Review the report\n', ''), 'missing_key', VALIDATOR, 1);
  });

  test('an id that contradicts the file name is refused', () => {
    expectProblem(
      (d) => edit(d, VALIDATOR, 'title: Review the report\n', 'title: Review the report\nversion: 2.0.0\n'),
      'id_mismatch',
      VALIDATOR,
      'version: 2.0.0',
    );
  });

  test('a wrongly typed value is refused', () => {
    expectProblem(
      (d) => edit(d, VALIDATOR, 'required: true', 'required: "yes"'),
      'invalid_type',
      VALIDATOR,
      'required:',
    );
  });

  test('a file name that is not <id>@<semver> is refused', () => {
    expectProblem(
      (d) => put(d, 'validators/Review@1.0.yaml', 'title: x\n'),
      'file_name_invalid',
      'validators/Review@1.0.yaml',
      1,
    );
  });

  test('a file outside the layout is refused', () => {
    expectProblem((d) => put(d, 'workflows/notes.txt', 'hello\n'), 'unexpected_file', 'workflows/notes.txt', 1);
    expectProblem(
      (d) => put(d, 'assets/widget/x@1.0.0.md', '---\ntitle: x\n---\n'),
      'unexpected_file',
      'assets/widget',
      1,
    );
  });

  test('a missing registry.yaml is refused', () => {
    expectProblem((d) => rmSync(join(d, 'registry.yaml')), 'source_missing', 'registry.yaml', 1);
  });

  test('an invalid release name is refused', () => {
    expectProblem(
      (d) => edit(d, 'registry.yaml', 'release: test-2026.1.0', 'release: Test_Release'),
      'invalid_release_name',
      'registry.yaml',
      2,
    );
  });

  test('a registry_id that is not kebab-case is refused', () => {
    expectProblem(
      (d) => edit(d, 'registry.yaml', 'registry_id: test-registry', 'registry_id: Test Registry'),
      'invalid_id',
      'registry.yaml',
      1,
    );
  });
});

describe('strict parsing with line numbers', () => {
  test('a YAML duplicate key is a syntax error at its line', () => {
    expectProblem(
      (d) => edit(d, 'registry.yaml', 'release: test-2026.1.0\n', 'release: test-2026.1.0\nrelease: other\n'),
      'yaml_syntax',
      'registry.yaml',
      3,
    );
  });

  test('a YAML indentation error is reported at its line', () => {
    expectProblem(
      (d) => edit(d, VALIDATOR, 'required: true', '  required: true\n bad: [1'),
      'yaml_syntax',
      VALIDATOR,
      'bad: [1',
    );
  });

  test('YAML anchors and aliases are refused', () => {
    expectProblem(
      (d) =>
        edit(d, VALIDATOR, 'required_capabilities: [workspace.read]', 'required_capabilities: &caps [workspace.read]'),
      'yaml_syntax',
      VALIDATOR,
      '&caps',
    );
  });

  test('a JSON syntax error in a schema is reported at its line', () => {
    expectProblem(
      (d) => edit(d, REPORT_SCHEMA, '"summary": { "type": "string" }', '"summary": { "type": "string", }'),
      'json_syntax',
      REPORT_SCHEMA,
      '"summary": {',
    );
  });

  test('a duplicate JSON member is refused at its line', () => {
    expectProblem(
      (d) => edit(d, REPORT_SCHEMA, '"required": ["summary"],', '"required": ["summary"],\n  "type": "object",'),
      'json_syntax',
      REPORT_SCHEMA,
      6,
    );
  });

  test('a schema failing the 2020-12 meta-schema is refused at the failing member', () => {
    expectProblem(
      (d) => edit(d, REPORT_SCHEMA, '"summary": { "type": "string" }', '"summary": { "type": "text" }'),
      'schema_invalid',
      REPORT_SCHEMA,
      '"type": "text"',
    );
  });

  test('a schema id the protocol publishes its own contract under is refused', () => {
    expectProblem(
      (d) =>
        put(
          d,
          'schemas/artifact@1.0.0.json',
          '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "type": "object"\n}\n',
        ),
      'schema_id_reserved',
      'schemas/artifact@1.0.0.json',
      1,
    );
  });

  test('a schema Ajv refuses in strict mode (unknown keyword) is refused', () => {
    expectProblem(
      (d) =>
        edit(d, REPORT_SCHEMA, '"summary": { "type": "string" }', '"summary": { "type": "string", "colour": "red" }'),
      'schema_invalid',
      REPORT_SCHEMA,
      1,
    );
  });

  test('a Markdown asset without frontmatter is refused', () => {
    expectProblem(
      (d) => put(d, 'assets/prompt/kickoff@1.0.0.md', '# Kickoff\n'),
      'frontmatter_missing',
      'assets/prompt/kickoff@1.0.0.md',
      1,
    );
  });

  test('a broken entry is reported once; references to it are not reported again', () => {
    withMinimalCopy((dir) => {
      put(dir, 'assets/prompt/kickoff@1.0.0.md', '# Kickoff\n');
      const result = checkSource(dir);
      assert.equal(result.ok, false);
      assert.deepEqual(result.problems.map(formatProblem), [
        'assets/prompt/kickoff@1.0.0.md:1: frontmatter_missing: a Markdown asset opens with a --- YAML frontmatter block',
      ]);
    });
  });
});
