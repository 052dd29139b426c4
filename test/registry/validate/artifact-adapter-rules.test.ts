/** Artifact declarations and host-adapter contracts: each rule refuses a breaking source at the right file:line. */
import { describe, test } from 'node:test';
import { CLAUDE_ADAPTER, WORKFLOW, edit, put, expectProblem } from '../helpers.js';

const W = WORKFLOW;
const A = CLAUDE_ADAPTER;

describe('artifact declaration rules', () => {
  test('a JSON artifact without a schema is refused', () => {
    expectProblem(
      (d) => edit(d, W, '        schema: { id: report, version: 1.0.0 }\n', ''),
      'artifact_schema_required',
      W,
      '- artifact_id: report',
    );
  });

  test('a Markdown artifact with a schema is refused', () => {
    expectProblem(
      (d) =>
        edit(
          d,
          W,
          '        path: out/summary.md\n',
          '        path: out/summary.md\n        schema: {id: report, version: 1.0.0}\n',
        ),
      'artifact_schema_forbidden',
      W,
      'schema: {id: report',
    );
  });

  test('an artifact schema that does not exist is refused', () => {
    expectProblem(
      (d) => edit(d, W, 'schema: { id: report, version: 1.0.0 }', 'schema: { id: report, version: 9.0.0 }'),
      'unresolved_ref',
      W,
      'version: 9.0.0',
    );
  });

  for (const bytes of ['0', '-1', '4194305']) {
    test(`max_bytes ${bytes} is refused (positive, at most 4 MiB)`, () => {
      expectProblem(
        (d) => edit(d, W, 'max_bytes: 65536', `max_bytes: ${bytes}`),
        'max_bytes_invalid',
        W,
        `max_bytes: ${bytes}`,
      );
    });
  }

  for (const path of [
    '/etc/report.json',
    '../report.json',
    'out/./report.json',
    'out//report.json',
    'out\\\\report.json',
    '.git/report.json',
    '.rimthan/report.json',
    'out/.svn/report.json',
    '.HG/report.json',
  ]) {
    test(`artifact path ${JSON.stringify(path)} is refused`, () => {
      expectProblem(
        (d) => edit(d, W, 'path: out/report.json', `path: "${path}"`),
        'artifact_path_invalid',
        W,
        'report.json"',
      );
    });
  }

  test('two artifacts with one id are refused', () => {
    expectProblem(
      (d) => edit(d, W, 'artifact_id: quick-note', 'artifact_id: summary # dup'),
      'duplicate_artifact',
      W,
      '# dup',
    );
  });

  test('two artifacts with one path are refused', () => {
    expectProblem(
      (d) => edit(d, W, 'path: out/quick.md', 'path: out/summary.md # dup'),
      'duplicate_artifact',
      W,
      '# dup',
    );
  });

  test('an unknown media type is refused', () => {
    expectProblem(
      (d) =>
        edit(
          d,
          W,
          'media_type: text/markdown\n        max_bytes: 4096\n        write_policy: create-owned',
          'media_type: text/plain\n        max_bytes: 4096\n        write_policy: create-owned',
        ),
      'invalid_value',
      W,
      'text/plain',
    );
  });
});

describe('host adapter contract rules', () => {
  test('an adapter from version 1.1.0 without adapter_contract is refused', () => {
    expectProblem(
      (d) =>
        put(d, A, '---\ntitle: Claude host\ndescription: Adapter.\ncompatible_harnesses: [claude-code]\n---\nBody.\n'),
      'adapter_contract_required',
      A,
      2,
    );
  });

  const templates: [string, string][] = [
    ['.claude/skills/{asset_id}/{asset_id}.md', 'two placeholders'],
    ['.claude/skills/SKILL.md', 'no placeholder'],
    ['.claude/{harness}/{asset_id}.md', 'another placeholder'],
    ['/home/{asset_id}.md', 'an absolute path'],
    ['../skills/{asset_id}.md', 'a parent segment'],
    ['./skills/{asset_id}.md', 'a dot segment'],
    ['skills//{asset_id}.md', 'an empty segment'],
    ['skills\\\\{asset_id}.md', 'a backslash'],
    ['.git/hooks/{asset_id}', 'the .git folder'],
    ['.rimthan/{asset_id}.md', 'the .rimthan folder'],
  ];
  for (const [template, why] of templates) {
    test(`a project-local template with ${why} is refused`, () => {
      expectProblem(
        (d) => edit(d, A, 'skill: .claude/skills/{asset_id}/SKILL.md', `skill: "${template}"`),
        'adapter_path_invalid',
        A,
        `skill: "`,
      );
    });
  }

  test('project-local delivery without a path template is refused', () => {
    expectProblem(
      (d) => edit(d, A, 'prompt: [dynamic-context]', 'prompt: [project-local]'),
      'adapter_path_missing',
      A,
      'prompt: [project-local]',
    );
  });

  test('an unknown harness is refused', () => {
    expectProblem(
      (d) => edit(d, A, 'compatible_harnesses: [claude-code]', 'compatible_harnesses: [claude-web]'),
      'invalid_value',
      A,
      'claude-web',
    );
  });
});

describe('asset limits', () => {
  test('a description longer than 1024 characters is refused', () => {
    expectProblem(
      (d) =>
        edit(
          d,
          'assets/skill/notes@1.0.0.md',
          'description: How to keep short, sourced notes.',
          `description: ${'x'.repeat(1025)}`,
        ),
      'description_too_long',
      'assets/skill/notes@1.0.0.md',
      3,
    );
  });

  test('a skill id longer than 64 characters is refused', () => {
    const rel = `assets/skill/${'s'.repeat(65)}@1.0.0.md`;
    expectProblem(
      (d) => put(d, rel, '---\ntitle: Long\ndescription: Long id.\n---\nBody.\n'),
      'file_name_invalid',
      rel,
      1,
    );
  });

  test('tools on an asset that is not a subagent are refused', () => {
    expectProblem(
      (d) => edit(d, 'assets/skill/notes@1.0.0.md', 'title: Note taking', 'title: Note taking\ntools: [Read]'),
      'unknown_key',
      'assets/skill/notes@1.0.0.md',
      'tools: [Read]',
    );
  });

  test('an empty asset body is refused', () => {
    expectProblem(
      (d) => edit(d, 'assets/skill/notes@1.0.0.md', 'Keep notes short and cite a source for each.\n', ''),
      'invalid_value',
      'assets/skill/notes@1.0.0.md',
      5,
    );
  });
});
