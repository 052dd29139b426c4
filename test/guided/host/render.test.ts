import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { hasLoneSurrogate } from '../../../src/core/index.js';
import { renderHostAsset } from '../../../src/guided/index.js';
import type { AssetEntry } from '../../../src/registry/model/release.js';

const TRICKY = 'Use when: the "plan" has #tags, a colon: and\nnew lines — or \\ backslashes\t& <xml>.';

function asset(kind: AssetEntry['kind'], extra: Partial<AssetEntry> = {}): AssetEntry {
  return {
    kind,
    id: 'evidence-grading',
    version: '1.0.0',
    title: 'Evidence grading',
    description: TRICKY,
    content: '# Grade evidence\n\nRate each source A–D.\n"""not a delimiter"""\n',
    sha256: '0'.repeat(64),
    ...extra,
  };
}

function frontmatter(markdown: string): { meta: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(markdown);
  assert.ok(match, 'frontmatter block then body');
  return { meta: parseYaml(match[1] as string) as Record<string, unknown>, body: match[2] as string };
}

describe('rendered host assets are valid host files', () => {
  test('Claude Code and Codex SKILL.md carry name and description frontmatter, then the body', () => {
    for (const harness of ['claude-code', 'codex'] as const) {
      const md = renderHostAsset(harness, 'skill', asset('skill'));
      assert.ok(md);
      const { meta, body } = frontmatter(md);
      assert.deepEqual(meta, { name: 'evidence-grading', description: TRICKY });
      assert.equal(body, asset('skill').content);
    }
  });

  test('a Claude Code agent file names its tools comma-separated; a command file has a description', () => {
    const agent = renderHostAsset('claude-code', 'subagent', asset('subagent', { tools: ['Read', 'Grep', 'Glob'] }));
    assert.deepEqual(frontmatter(agent ?? '').meta, {
      name: 'evidence-grading',
      description: TRICKY,
      tools: 'Read, Grep, Glob',
    });
    const command = renderHostAsset('claude-code', 'prompt', asset('prompt'));
    assert.deepEqual(frontmatter(command ?? '').meta, { description: TRICKY });
  });

  test('a Codex agent file is valid TOML with name, description and developer_instructions', () => {
    const toml = renderHostAsset('codex', 'subagent', asset('subagent'));
    assert.deepEqual(
      { ...parseToml(toml ?? '') },
      {
        name: 'evidence-grading',
        description: TRICKY,
        developer_instructions: asset('subagent').content,
      },
    );
  });

  test('the Codex agent file of a read-only subagent carries sandbox_mode = "read-only"', () => {
    const toml = renderHostAsset('codex', 'subagent', asset('subagent', { read_only: true }));
    assert.deepEqual(
      { ...parseToml(toml ?? '') },
      {
        name: 'evidence-grading',
        description: TRICKY,
        sandbox_mode: 'read-only',
        developer_instructions: asset('subagent').content,
      },
    );
    assert.equal(
      renderHostAsset('codex', 'subagent', asset('subagent', { read_only: false })),
      renderHostAsset('codex', 'subagent', asset('subagent')),
      'only a read-only subagent gets a sandbox line (earlier releases render as before)',
    );
  });

  test('any text round-trips through the Codex TOML strings', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
        (content, description) => {
          fc.pre(!hasLoneSurrogate(content) && !hasLoneSurrogate(description) && description.trim().length > 0);
          const toml = renderHostAsset('codex', 'subagent', asset('subagent', { content, description }));
          assert.deepEqual(
            { ...parseToml(toml ?? '') },
            {
              name: 'evidence-grading',
              description,
              developer_instructions: content,
            },
          );
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  test('no project-local file where the harness has no format or the frontmatter limits are broken', () => {
    assert.equal(renderHostAsset('codex', 'prompt', asset('prompt')), undefined);
    assert.equal(renderHostAsset('cowork', 'skill', asset('skill')), undefined);
    assert.equal(renderHostAsset('buzz', 'subagent', asset('subagent')), undefined);
    assert.equal(renderHostAsset('claude-code', 'skill', asset('skill', { description: 'x'.repeat(1025) })), undefined);
    assert.equal(renderHostAsset('claude-code', 'skill', asset('skill', { description: '  ' })), undefined);
  });
});
