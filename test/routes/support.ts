/** Temporary copies of the packaged research-decision source with its route scenarios, edited per test. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package/index.js';

export const RESEARCH_SOURCE = join(packageRoot(), 'releases', 'src', 'research-decision');
export const DESK = 'scenarios/research-decision/desk-research.yaml';
export const SPIKE = 'scenarios/research-decision/prototype-spike.yaml';

/** Runs `fn` on a temporary copy of the research source (scenarios included), removed afterwards. */
export async function withResearchCopy<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), 'rimthan-routes-test-'));
  try {
    const dir = join(root, 'src');
    cpSync(RESEARCH_SOURCE, dir, { recursive: true });
    return await fn(dir);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Replaces the single occurrence of `from` in `rel`; returns the 1-based line where `to` now starts. */
export function edit(dir: string, rel: string, from: string, to: string): number {
  const path = join(dir, rel);
  const text = readFileSync(path, 'utf8');
  assert.equal(text.split(from).length, 2, `test edit: ${JSON.stringify(from)} must occur once in ${rel}`);
  const at = text.indexOf(from);
  writeFileSync(path, text.replace(from, to));
  return text.slice(0, at).split('\n').length;
}

/** The 1-based line of the single occurrence of `needle` in `rel`. */
export function lineOf(dir: string, rel: string, needle: string): number {
  const text = readFileSync(join(dir, rel), 'utf8');
  assert.equal(text.split(needle).length, 2, `${JSON.stringify(needle)} must occur once in ${rel}`);
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}
