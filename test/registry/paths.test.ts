/** Declared paths and adapter templates: relative normalised POSIX, never under reserved folders (property tests). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { RESERVED_ROOTS, pathTemplateProblem, projectPathProblem } from '../../src/registry/index.js';

const segment = fc
  .stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,11}$/)
  .filter((s) => s !== '.' && s !== '..' && !RESERVED_ROOTS.includes(s.toLowerCase()));
const safePath = fc.array(segment, { minLength: 1, maxLength: 6 }).map((parts) => parts.join('/'));

describe('project path rules', () => {
  test('any path of ordinary segments is accepted', () => {
    fc.assert(fc.property(safePath, (path) => projectPathProblem(path) === undefined));
  });

  test('a path with a parent, dot, empty or reserved segment anywhere is refused', () => {
    const bad = fc.constantFrom('..', '.', '', '.git', '.GIT', '.hg', '.svn', '.rimthan');
    fc.assert(
      fc.property(safePath, bad, fc.nat(), (path, evil, at) => {
        const parts = path.split('/');
        parts.splice(at % (parts.length + 1), 0, evil);
        return projectPathProblem(parts.join('/')) !== undefined;
      }),
    );
  });

  test('absolute paths and backslashes are refused', () => {
    fc.assert(fc.property(safePath, (path) => projectPathProblem(`/${path}`) !== undefined));
    fc.assert(fc.property(safePath, (path) => projectPathProblem(`${path}\\x`) !== undefined));
  });

  test('a template needs exactly one {asset_id} and nothing else in braces', () => {
    assert.equal(pathTemplateProblem('.claude/skills/{asset_id}/SKILL.md'), undefined);
    assert.equal(pathTemplateProblem('.codex/agents/{asset_id}.toml'), undefined);
    fc.assert(fc.property(safePath, (path) => pathTemplateProblem(`${path}/{asset_id}.md`) === undefined));
    fc.assert(fc.property(safePath, (path) => pathTemplateProblem(path) !== undefined));
    fc.assert(fc.property(safePath, (path) => pathTemplateProblem(`${path}/{asset_id}/{asset_id}`) !== undefined));
    fc.assert(fc.property(safePath, (path) => pathTemplateProblem(`${path}/{asset_id}/{kind}`) !== undefined));
  });
});
