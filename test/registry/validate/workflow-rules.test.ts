/** Each workflow authoring rule refuses a source that breaks it, pointing at the right file and line. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkSource, buildRelease } from '../../../src/registry/index.js';
import { VALIDATOR, WORKFLOW, assertProblem, edit, lineOf, put, withMinimalCopy } from '../helpers.js';

interface Case {
  readonly name: string;
  readonly mutate: (dir: string) => void;
  readonly code: string;
  readonly file: string;
  /** A text on exactly one line of the mutated file, or a line number. */
  readonly at: string | number;
}

const W = WORKFLOW;
const cases: Case[] = [
  {
    name: 'alias equal to another workflow id',
    mutate: (d) => {
      put(
        d,
        'workflows/other@1.0.0.yaml',
        readWorkflow(d).replace('entry_aliases: [mini-alias]', 'entry_aliases: [mini]'),
      );
    },
    code: 'alias_collision',
    file: 'workflows/other@1.0.0.yaml',
    at: 'entry_aliases: [mini]',
  },
  {
    name: 'alias equal to another workflow alias',
    mutate: (d) => put(d, 'workflows/other@2.0.0.yaml', readWorkflow(d)),
    code: 'alias_collision',
    file: 'workflows/other@2.0.0.yaml',
    at: 'entry_aliases: [mini-alias]',
  },
  {
    name: 'first step is not setup-workspace',
    mutate: (d) => edit(d, W, '- id: setup-workspace', '- id: prepare'),
    code: 'first_step_not_setup',
    file: W,
    at: '- id: prepare',
  },
  {
    name: 'start_step other than setup-workspace',
    mutate: (d) => edit(d, W, 'steps:\n', 'start_step: choose\nsteps:\n'),
    code: 'start_step_invalid',
    file: W,
    at: 'start_step: choose',
  },
  {
    name: 'step with both next and branches',
    mutate: (d) => edit(d, W, '    branches:', '    next: draft\n    branches:'),
    code: 'next_and_branches',
    file: W,
    at: '    branches:',
  },
  {
    name: 'next to a missing step',
    mutate: (d) => edit(d, W, 'next: polish', 'next: nowhere'),
    code: 'target_missing',
    file: W,
    at: 'next: nowhere',
  },
  {
    name: 'branch to a missing step',
    mutate: (d) => edit(d, W, 'to: quick', 'to: quik'),
    code: 'target_missing',
    file: W,
    at: 'to: quik',
  },
  {
    name: 'branch predicate over an undeclared field',
    mutate: (d) => edit(d, W, 'field: route, equals: deep', 'field: depth, equals: deep'),
    code: 'branch_field_undeclared',
    file: W,
    at: 'field: depth',
  },
  {
    name: 'branches testing different fields',
    mutate: (d) => edit(d, W, 'field: route, in: [quick]', 'field: topic, in: [quick]'),
    code: 'branch_fields_mixed',
    file: W,
    at: 'field: topic',
  },
  {
    name: 'overlapping branch values',
    mutate: (d) => edit(d, W, 'in: [quick]', 'in: [quick, deep]'),
    code: 'branch_overlap',
    file: W,
    at: 'in: [quick, deep]',
  },
  {
    name: 'question over an undeclared field',
    mutate: (d) => edit(d, W, '      field: route\n', '      field: mood\n'),
    code: 'question_field_undeclared',
    file: W,
    at: 'field: mood',
  },
  {
    name: 'question on a step without branches',
    mutate: (d) =>
      edit(d, W, '    title: Polish\n', '    title: Polish\n    question: { field: route, prompt: Which? }\n'),
    code: 'question_without_branches',
    file: W,
    at: 'prompt: Which?',
  },
  {
    name: 'predicate with both equals and in',
    mutate: (d) => edit(d, W, 'equals: deep }', 'equals: deep, in: [deep] }'),
    code: 'invalid_value',
    file: W,
    at: 'in: [deep] }',
  },
  {
    name: 'unreachable step',
    mutate: (d) => edit(d, W, 'to: quick', 'to: polish'),
    code: 'step_unreachable',
    file: W,
    at: '- id: quick',
  },
  {
    name: 'duplicate step id',
    mutate: (d) => edit(d, W, '  - id: quick\n    title: Quick note', '  - id: polish # twice\n    title: Quick note'),
    code: 'duplicate_step',
    file: W,
    at: '# twice',
  },
  {
    name: 'step id not kebab-case',
    mutate: (d) => {
      edit(d, W, '- id: polish', '- id: Polish_Step');
      edit(d, W, 'next: polish', 'next: Polish_Step');
    },
    code: 'invalid_id',
    file: W,
    at: '- id: Polish_Step',
  },
  {
    name: 'alias not kebab-case',
    mutate: (d) => edit(d, W, '[mini-alias]', '[Mini Alias]'),
    code: 'invalid_id',
    file: W,
    at: 'entry_aliases',
  },
  {
    name: 'instruction asset missing',
    mutate: (d) => edit(d, W, '{ id: setup, version: 1.0.0 }', '{ id: setup, version: 1.0.1 }'),
    code: 'unresolved_ref',
    file: W,
    at: 'version: 1.0.1',
  },
  {
    name: 'host asset missing',
    mutate: (d) => edit(d, W, 'id: notes, version: 1.0.0', 'id: notes, version: 2.0.0'),
    code: 'unresolved_ref',
    file: W,
    at: 'id: notes',
  },
  {
    name: 'host asset of the wrong kind',
    mutate: (d) => edit(d, W, 'kind: skill, id: notes', 'kind: prompt, id: notes'),
    code: 'unresolved_ref',
    file: W,
    at: 'id: notes',
  },
  {
    name: 'confirmed-state schema missing',
    mutate: (d) => edit(d, W, '{ id: state, version: 1.0.0 }', '{ id: status, version: 1.0.0 }'),
    code: 'unresolved_ref',
    file: W,
    at: 'confirmed_state_schema',
  },
  {
    name: 'step validator missing',
    mutate: (d) => edit(d, W, 'id: review-report, version: 1.0.0', 'id: review-reports, version: 1.0.0'),
    code: 'unresolved_ref',
    file: W,
    at: 'review-reports',
  },
  {
    name: 'validator brief missing',
    mutate: (d) => edit(d, VALIDATOR, '{ id: review-report, version: 1.0.0 }', '{ id: review-brief, version: 1.0.0 }'),
    code: 'unresolved_ref',
    file: VALIDATOR,
    at: 'brief:',
  },
  {
    name: 'host adapter missing for a harness',
    mutate: (d) => edit(d, W, 'id: legacy-host', 'id: old-host'),
    code: 'unresolved_ref',
    file: W,
    at: 'old-host',
  },
  {
    name: 'host adapter not compatible with its harness',
    mutate: (d) => edit(d, W, '{ id: legacy-host, version: 1.0.0 }', '{ id: claude-host, version: 1.1.0 }'),
    code: 'adapter_harness_incompatible',
    file: W,
    at: 'codex:',
  },
  {
    name: 'input that is not an earlier output',
    mutate: (d) => edit(d, W, 'inputs: [report]', 'inputs: [quick-note]'),
    code: 'artifact_input_unknown',
    file: W,
    at: 'inputs: [quick-note]',
  },
  {
    name: 'validator reading an artifact its step lacks',
    mutate: (d) => edit(d, VALIDATOR, 'input_artifacts: [report]', 'input_artifacts: [report, summary]'),
    code: 'validator_input_unknown',
    file: W,
    at: '{ id: review-report',
  },
  {
    name: 'duplicate step validator',
    mutate: (d) =>
      edit(
        d,
        W,
        '      - { id: review-report, version: 1.0.0 }\n',
        '      - { id: review-report, version: 1.0.0 }\n      - { id: review-report, version: 1.0.0 }  # again\n',
      ),
    code: 'duplicate_entry',
    file: W,
    at: '# again',
  },
];

function readWorkflow(dir: string): string {
  return readFileSync(join(dir, WORKFLOW), 'utf8');
}

describe('workflow authoring rules', () => {
  for (const c of cases) {
    test(`refuses ${c.name} at file:line`, () => {
      withMinimalCopy((dir) => {
        c.mutate(dir);
        const result = checkSource(dir);
        assert.equal(result.ok, false);
        const line = typeof c.at === 'number' ? c.at : lineOf(dir, c.file, c.at);
        assertProblem(result.problems, c.code, c.file, line);
        assert.equal(buildRelease(dir).ok, false, 'a source that fails checking does not build');
      });
    });
  }

  test('every problem is reported, not only the first', () => {
    withMinimalCopy((dir) => {
      edit(dir, W, 'next: polish', 'next: nowhere');
      edit(dir, W, 'to: quick', 'to: quik');
      edit(dir, VALIDATOR, 'input_artifacts: [report]', 'input_artifacts: [report, summary]');
      const result = checkSource(dir);
      assert.equal(result.ok, false);
      assertProblem(result.problems, 'target_missing', W, lineOf(dir, W, 'next: nowhere'));
      assertProblem(result.problems, 'target_missing', W, lineOf(dir, W, 'to: quik'));
      assertProblem(result.problems, 'validator_input_unknown', W, lineOf(dir, W, '{ id: review-report'));
    });
  });
});
