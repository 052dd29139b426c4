/** Test helpers: temporary copies of the minimal source fixture and precise text edits with line lookup. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../src/package/index.js';
import { checkSource } from '../../src/registry/index.js';
import type { Problem } from '../../src/registry/index.js';

export const MINIMAL = join(packageRoot(), 'test', 'registry', 'fixtures', 'minimal');
export const WORKFLOW = 'workflows/mini@1.0.0.yaml';
export const VALIDATOR = 'validators/review-report@1.0.0.yaml';
export const CLAUDE_ADAPTER = 'assets/host-adapter/claude-host@1.1.0.md';

/** A fresh temporary folder; removed by the returned cleanup. */
export function tempDir(prefix = 'rimthan-registry-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `fn` on a temporary copy of the minimal fixture and removes it afterwards. */
export function withMinimalCopy<T>(fn: (dir: string) => T): T {
  const { dir, cleanup } = tempDir();
  try {
    cpSync(MINIMAL, join(dir, 'src'), { recursive: true });
    return fn(join(dir, 'src'));
  } finally {
    cleanup();
  }
}

/** Replaces the single occurrence of `from` in a source file. */
export function edit(dir: string, rel: string, from: string, to: string): void {
  const path = join(dir, rel);
  const text = readFileSync(path, 'utf8');
  assert.equal(text.split(from).length, 2, `fixture edit: ${JSON.stringify(from)} must occur exactly once in ${rel}`);
  writeFileSync(path, text.replace(from, to));
}

/** Writes (or overwrites) a source file. */
export function put(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** The 1-based line of the only line containing `needle`. */
export function lineOf(dir: string, rel: string, needle: string): number {
  const lines = readFileSync(join(dir, rel), 'utf8').split('\n');
  const hits = lines.flatMap((line, i) => (line.includes(needle) ? [i + 1] : []));
  assert.equal(hits.length, 1, `fixture lookup: ${JSON.stringify(needle)} must be on exactly one line of ${rel}`);
  return hits[0] as number;
}

/** Asserts the problem list holds one with this code at this file and line. */
export function assertProblem(problems: readonly Problem[], code: string, file: string, line: number): void {
  const hit = problems.some((p) => p.code === code && p.file === file && p.line === line);
  assert.ok(
    hit,
    `expected ${code} at ${file}:${line}, got:\n${problems.map((p) => `  ${p.file}:${p.line} ${p.code} ${p.message}`).join('\n')}`,
  );
}

/**
 * Applies `mutate` to a fresh copy of the minimal fixture and asserts the check reports `code` in `file` at a line
 * (given directly, or as the line holding the text `at`).
 */
export function expectProblem(mutate: (dir: string) => void, code: string, file: string, at: string | number): void {
  withMinimalCopy((dir) => {
    mutate(dir);
    const result = checkSource(dir);
    assert.equal(result.ok, false);
    assertProblem(result.problems, code, file, typeof at === 'number' ? at : lineOf(dir, file, at));
  });
}
