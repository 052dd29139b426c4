/**
 * The shipped release_notes flow against real Git repositories, through the run tools a model calls: a draft of the
 * commits since a tag waits for approval in CHANGELOG.draft.md; a rejection drafts again from the repository as it
 * is now; an approval writes the section (as the person left the draft) into CHANGELOG.md once.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { renderReleaseNotes, writeChangelogOnce, writeMarker } from '../../../src/runs/examples/index.js';
import { openWorkspaceStack, SESSION_A } from '../../tools/harness.js';
import type { Stack } from '../../tools/harness.js';
import { commit, repositoryWith } from '../fixtures/git-repo.js';

const FLOW = { definition_name: 'release_notes', definition_version: 'v1' };

describe('renderReleaseNotes', () => {
  test('groups Conventional Commits: breaking first, then features, fixes, performance, docs, everything else', () => {
    const sha = (n: number): string => String(n).repeat(40).slice(0, 40);
    const notes = renderReleaseNotes('1.3.0', '2026-05-01', [
      { sha: sha(1), subject: 'feat(cli): one-line errors', body: '' },
      { sha: sha(2), subject: 'fix: keep the session', body: '' },
      { sha: sha(3), subject: 'refactor!: drop the old store', body: '' },
      { sha: sha(4), subject: 'feat: new flag', body: 'BREAKING CHANGE: the flag replaces --old\n' },
      { sha: sha(5), subject: 'Update the README', body: '' },
      { sha: sha(6), subject: 'docs: a CLI page', body: '' },
      { sha: sha(7), subject: 'perf(store): one fsync', body: '' },
    ]);
    assert.equal(
      notes,
      [
        '## 1.3.0 (2026-05-01)',
        '',
        '### Breaking changes',
        '',
        '- drop the old store (3333333)',
        '- new flag (4444444)',
        '',
        '### Features',
        '',
        '- **cli:** one-line errors (1111111)',
        '',
        '### Fixes',
        '',
        '- keep the session (2222222)',
        '',
        '### Performance',
        '',
        '- **store:** one fsync (7777777)',
        '',
        '### Documentation',
        '',
        '- a CLI page (6666666)',
        '',
        '### Other changes',
        '',
        '- Update the README (5555555)',
        '',
      ].join('\n'),
    );
  });
});

describe('writeChangelogOnce', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rimthan-changelog-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('puts the section below the title, and a second write with the same key changes nothing', () => {
    const file = join(dir, 'CHANGELOG.md');
    writeFileSync(file, '# Changelog\n\n## 1.2.0 (2026-01-01)\n\n- older\n');
    assert.equal(writeChangelogOnce(file, '## 1.3.0 (2026-05-01)\n\n- newer\n', 'k1', '1.3.0'), 'written');
    const once = readFileSync(file, 'utf8');
    assert.equal(
      once,
      `# Changelog\n\n${writeMarker('k1')}\n## 1.3.0 (2026-05-01)\n\n- newer\n\n## 1.2.0 (2026-01-01)\n\n- older\n`,
    );
    assert.equal(writeChangelogOnce(file, '## 1.3.0 (2026-05-01)\n\n- newer\n', 'k1', '1.3.0'), 'already_written');
    assert.equal(readFileSync(file, 'utf8'), once);
  });

  test('a section for the version written by anything else is refused; a new file gets a title', () => {
    const file = join(dir, 'other.md');
    assert.equal(writeChangelogOnce(file, '## v2.0.0 (2026-05-01)\n', 'a', 'v2.0.0'), 'written');
    assert.match(readFileSync(file, 'utf8'), /^# Changelog\n\n<!-- rimthan release_notes a -->\n## v2\.0\.0/);
    assert.throws(() => writeChangelogOnce(file, '## 2.0.0\n', 'b', '2.0.0'), { code: 'version_in_changelog' });
  });
});

describe('the release_notes flow through the run tools', () => {
  let stack: Stack & { readonly workspace: string };
  let workspace = '';
  before(async () => {
    stack = await openWorkspaceStack();
    workspace = stack.workspace;
  });
  after(() => stack.close());

  test('draft → reject → draft again with the new commit → edit → approve: CHANGELOG.md holds the edited draft once', async () => {
    const repo = repositoryWith(join(workspace, 'app'), 'v1.2.0', [
      'feat(cli): one-line errors',
      'fix: keep the session',
    ]);
    writeFileSync(join(repo, 'CHANGELOG.md'), '# Changelog\n\n## 1.2.0 (2026-01-01)\n\n- older\n');
    const tools = stack.tools();
    const started = await stack.ok(tools, 'workflow_run_start', {
      ...FLOW,
      input: { repository: 'app', since: 'v1.2.0', version: '1.3.0' },
    });
    const runId = started['run_id'] as string;
    const first = await stack.waitFor(tools, runId, 'interrupted');
    assert.equal(
      first['status_summary'],
      'awaiting input at Await approval of the draft: review CHANGELOG.draft.md (draft 1, 2 commits), then resume ' +
        'with {"approved": true} to write CHANGELOG.md or {"approved": false} to draft again',
    );
    const draft1 = readFileSync(join(repo, 'CHANGELOG.draft.md'), 'utf8');
    assert.match(draft1, /^<!-- Draft 1 of rimthan run /);
    assert.match(draft1, /## 1\.3\.0 \(2026-05-01\)\n\n### Features\n\n- \*\*cli:\*\* one-line errors \([0-9a-f]{7}\)/);

    commit(repo, 'perf: faster drafts');
    await stack.ok(tools, 'workflow_run_resume', { run_id: runId, resume: { approved: false } });
    await stack.waitFor(tools, runId, 'interrupted');
    const second = await stack.ok(tools, 'workflow_run_get', { run_id: runId });
    assert.match(second['status_summary'] as string, /\(draft 2, 3 commits\)/);
    const draft2 = readFileSync(join(repo, 'CHANGELOG.draft.md'), 'utf8');
    assert.match(draft2, /### Performance\n\n- faster drafts/);

    writeFileSync(join(repo, 'CHANGELOG.draft.md'), draft2.replace('- faster drafts', '- drafts in half the time'));
    await stack.ok(tools, 'workflow_run_resume', { run_id: runId, resume: { approved: true } });
    const done = await stack.waitFor(tools, runId, 'completed');
    assert.equal(done['status_summary'], 'completed');
    const changelog = readFileSync(join(repo, 'CHANGELOG.md'), 'utf8');
    assert.equal(changelog.match(/^## 1\.3\.0/gm)?.length, 1);
    assert.match(changelog, /^# Changelog\n\n<!-- rimthan release_notes [0-9a-f]{64} -->\n## 1\.3\.0 \(2026-05-01\)/);
    assert.match(changelog, /- drafts in half the time/);
    assert.doesNotMatch(changelog, /Draft 2 of rimthan run/);
    assert.match(changelog, /## 1\.2\.0 \(2026-01-01\)\n\n- older\n$/);
    assert.equal(existsSync(join(repo, 'CHANGELOG.draft.md')), false, 'the draft is removed');
    const history = await stack.ok(tools, 'workflow_run_history', { run_id: runId, limit: 100 });
    const vertices = (history['entries'] as { kind: string; vertex_id?: string }[])
      .filter((e) => e.kind === 'vertex_completed')
      .map((e) => e.vertex_id);
    assert.deepEqual(vertices, ['draft_notes', 'await_approval', 'draft_notes', 'await_approval', 'write_changelog']);
  });

  test('a missing tag, a folder outside the workspace, a non-repository and a noted version pause the run with a code', async () => {
    const repo = repositoryWith(join(workspace, 'lib'), 'v0.1.0', ['feat: first']);
    mkdirSync(join(workspace, 'plain'));
    const outside = mkdtempSync(join(tmpdir(), 'rimthan-outside-'));
    repositoryWith(outside, 'v1.0.0', ['fix: elsewhere']);
    symlinkSync(outside, join(workspace, 'escape'));
    writeFileSync(join(repo, 'CHANGELOG.md'), '# Changelog\n\n## 0.2.0\n\n- by hand\n');
    const tools = stack.tools(SESSION_A);
    const cases: [Record<string, string>, string][] = [
      [
        { repository: 'lib', since: 'v9.9.9', version: '0.2.0' },
        'Draft release notes failed (failed after 1 attempt: error tag_not_found)',
      ],
      [
        { repository: '../x', since: 'v0.1.0', version: '0.2.0' },
        'Draft release notes failed (failed after 1 attempt: error outside_workspace)',
      ],
      [
        { repository: 'escape', since: 'v1.0.0', version: '1.1.0' },
        'Draft release notes failed (failed after 1 attempt: error outside_workspace)',
      ],
      [
        { repository: 'plain', since: 'v0.1.0', version: '0.2.0' },
        'Draft release notes failed (failed after 1 attempt: error not_a_git_repository)',
      ],
      [
        { repository: 'nowhere', since: 'v0.1.0', version: '0.2.0' },
        'Draft release notes failed (failed after 1 attempt: error repository_not_found)',
      ],
    ];
    try {
      for (const [input, summary] of cases) {
        const run = await stack.ok(tools, 'workflow_run_start', { ...FLOW, input });
        const paused = await stack.waitFor(tools, run['run_id'] as string, 'interrupted');
        assert.equal(paused['status_summary'], `${summary}; resume or cancel`, JSON.stringify(input));
      }
      const noted = await stack.ok(tools, 'workflow_run_start', {
        ...FLOW,
        input: { repository: 'lib', since: 'v0.1.0', version: '0.2.0' },
      });
      const id = noted['run_id'] as string;
      await stack.waitFor(tools, id, 'interrupted');
      await stack.ok(tools, 'workflow_run_resume', { run_id: id, resume: { approved: true } });
      for (;;) {
        const run = await stack.ok(tools, 'workflow_run_get', { run_id: id });
        if (run['run_status'] === 'interrupted' && /Write CHANGELOG/.test(run['status_summary'] as string)) {
          assert.equal(
            run['status_summary'],
            'Write CHANGELOG.md failed (failed after 3 attempts: error version_in_changelog); resume or cancel',
          );
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'), '# Changelog\n\n## 0.2.0\n\n- by hand\n');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
