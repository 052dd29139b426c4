/**
 * The error vocabulary (src/core/error-codes.ts): each code once, every code snake_case, the run tools' contract codes
 * (spec: run-tools-contract.md, and the harness guide that publishes them) all in it, each room's subset drawn from it,
 * and the retired singular spelling of `invalid_arguments` gone from the sources and docs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { ERROR_CODES, isErrorCode } from '../../src/core/index.js';
import {
  CLI_CODES,
  CONFIG_CODES,
  DATA_CODES,
  EXAMPLE_FLOW_CODES,
  GUIDED_CODES,
  HTTP_EDGE_CODES,
  PARTICIPANT_CODES,
  RELEASE_STORE_CODES,
  RUNS_CODES,
  TOOL_CONTRACT_CODES,
} from '../../src/core/error-codes.js';
import { GuidedErrorCode } from '../../src/guided/errors.js';
import { ParticipantErrorCode } from '../../src/participant/errors.js';
import { RELEASE_STORE_REFUSAL_CODES } from '../../src/registry/store/refusals.js';
import { RunToolErrorCode } from '../../src/tools/result.js';

/** The repository root (this file runs as dist/test/core/error-codes.test.js). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');

const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** The codes the spec names for the run tools ("every error carries a stable string code (...)"). */
const SPEC_RUN_TOOL_CODES = [
  'invalid_arguments',
  'not_found',
  'conflict',
  'unknown_definition',
  'invalid_input',
  'resume_not_supported',
  'unavailable',
];

/** The backticked words of the harness guide's "Errors carry a stable `code` (...)" sentence. */
function harnessGuideCodes(): string[] {
  const text = readFileSync(join(ROOT, 'docs/harness/typescript-harness.md'), 'utf8');
  const start = text.indexOf('Errors carry a stable `code`');
  assert.ok(start >= 0, 'the harness guide lists the run tools error codes');
  const sentence = text.slice(start, text.indexOf(' and a message', start));
  return [...sentence.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? '').filter((code) => code !== 'code');
}

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, ext));
    else if (ext.test(name)) out.push(path);
  }
  return out;
}

describe('error vocabulary', () => {
  test('every code appears once', () => {
    const seen = new Set<string>();
    const twice = ERROR_CODES.filter((code) => seen.size === seen.add(code).size);
    assert.deepEqual(twice, []);
  });

  test('every code is snake_case', () => {
    assert.deepEqual(
      ERROR_CODES.filter((code) => !SNAKE_CASE.test(code)),
      [],
    );
  });

  test('the groups make up the whole vocabulary', () => {
    const groups = [
      TOOL_CONTRACT_CODES,
      GUIDED_CODES,
      HTTP_EDGE_CODES,
      RELEASE_STORE_CODES,
      RUNS_CODES,
      CONFIG_CODES,
      DATA_CODES,
      PARTICIPANT_CODES,
      CLI_CODES,
      EXAMPLE_FLOW_CODES,
    ].flat();
    assert.deepEqual([...groups].sort(), [...ERROR_CODES].sort());
  });

  test('the spec and the harness guide name only codes of the vocabulary, the contract group holds them all', () => {
    const guide = harnessGuideCodes();
    assert.ok(guide.length >= SPEC_RUN_TOOL_CODES.length, guide.join(', '));
    for (const code of [...SPEC_RUN_TOOL_CODES, ...guide]) {
      assert.ok(isErrorCode(code), `${code} is not in the vocabulary`);
      assert.ok((TOOL_CONTRACT_CODES as readonly string[]).includes(code), `${code} is not a tool contract code`);
    }
  });

  test("each room's subset is drawn from the vocabulary", () => {
    const subsets: Record<string, readonly string[]> = {
      RunToolErrorCode: Object.values(RunToolErrorCode),
      GuidedErrorCode: Object.values(GuidedErrorCode),
      ParticipantErrorCode: Object.values(ParticipantErrorCode),
      RELEASE_STORE_REFUSAL_CODES,
    };
    for (const [name, codes] of Object.entries(subsets)) {
      assert.deepEqual(
        codes.filter((code) => !isErrorCode(code)),
        [],
        name,
      );
    }
    assert.deepEqual([...Object.values(RunToolErrorCode)].sort(), [...TOOL_CONTRACT_CODES].sort());
  });

  test('the retired singular spelling of invalid_arguments is gone from sources, tests and docs', () => {
    const root = ROOT;
    const retired = ['invalid', 'argument'].join('_');
    const word = new RegExp(`\\b${retired}\\b`);
    const files = [
      ...filesUnder(join(root, 'src'), /\.ts$/),
      ...filesUnder(join(root, 'test'), /\.ts$/),
      ...filesUnder(join(root, 'docs'), /\.md$/),
    ];
    assert.ok(files.length > 100);
    assert.deepEqual(
      files.filter((file) => word.test(readFileSync(file, 'utf8'))).map((file) => file.slice(root.length + 1)),
      [],
    );
  });

  test('isErrorCode refuses words outside the vocabulary', () => {
    assert.equal(isErrorCode('invalid_arguments'), true);
    assert.equal(isErrorCode(['invalid', 'argument'].join('_')), false);
    assert.equal(isErrorCode(''), false);
  });
});
