/**
 * run-tools.md: "the safe result deliberately omits the raw input field". No shipped example flow may copy input text
 * into a status summary, an interrupt or failure message, or a history entry: every string of every input carries a
 * marker, each flow is driven through its pauses, rejections, failures and completion, and no tool output shows it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../src/core/index.js';
import { exampleCatalog } from '../../../src/runs/index.js';
import { assertNeverShown, openWorkspaceStack } from '../../tools/harness.js';
import type { Stack } from '../../tools/harness.js';
import { repositoryWith } from '../fixtures/git-repo.js';

const MARKER = 'mk7q3zinput';

/** How to drive each shipped flow: inputs whose every string holds MARKER, and the resumes to send at each pause. */
interface Drive {
  readonly inputs: (workspace: string) => JsonObject[];
  readonly resumes: readonly JsonObject[];
}

const DRIVES: Readonly<Record<string, Drive>> = {
  'release_notes@v1': {
    inputs: (workspace) => {
      repositoryWith(join(workspace, `repo-${MARKER}`), `v1.0.0-${MARKER}`, ['feat: one', 'fix: two']);
      return [
        { repository: `repo-${MARKER}`, since: `v1.0.0-${MARKER}`, version: `1.1.0-${MARKER}` },
        // Failures: a tag that is not there, a folder that is not there, a path outside the workspace.
        { repository: `repo-${MARKER}`, since: `v9.0.0-${MARKER}`, version: `9.1.0-${MARKER}` },
        { repository: `gone-${MARKER}`, since: `v1.0.0-${MARKER}`, version: `1.1.0-${MARKER}` },
        { repository: `../${MARKER}`, since: `v1.0.0-${MARKER}`, version: `1.1.0-${MARKER}` },
      ];
    },
    resumes: [{ approved: false }, { approved: true }],
  },
};

describe('shipped example flows keep input text out of statuses and history', () => {
  let stack: Stack & { readonly workspace: string };
  let workspace = '';
  before(async () => {
    stack = await openWorkspaceStack();
    workspace = stack.workspace;
  });
  after(() => stack.close());

  test('every shipped flow has a drive here', () => {
    const shipped = exampleCatalog({ workspace })
      .list()
      .map((d) => `${d.name}@${d.version}`);
    assert.deepEqual(shipped, Object.keys(DRIVES).sort());
  });

  for (const [key, drive] of Object.entries(DRIVES)) {
    test(`${key}: no status summary, message or history entry holds input text`, async () => {
      const [name = '', version = ''] = key.split('@');
      const tools = stack.tools();
      const ids: string[] = [];
      for (const input of drive.inputs(workspace)) {
        assert.ok(JSON.stringify(input).includes(MARKER));
        const run = await stack.ok(tools, 'workflow_run_start', {
          definition_name: name,
          definition_version: version,
          input,
        });
        const id = run['run_id'] as string;
        ids.push(id);
        for (const resume of drive.resumes) {
          const paused = await stack.waitFor(tools, id, 'interrupted');
          if (!/^awaiting input/.test(paused['status_summary'] as string)) break; // a failure: seen, not resumed
          await stack.ok(tools, 'workflow_run_resume', { run_id: id, resume });
        }
        await stack.ok(tools, 'workflow_run_history', { run_id: id, limit: 100 });
      }
      const first = await stack.waitFor(tools, ids[0] ?? '', 'completed');
      assert.equal(first['status_summary'], 'completed', 'the first input runs to completion');
      for (const id of ids) {
        await stack.ok(tools, 'workflow_run_get', { run_id: id });
        await stack.ok(tools, 'workflow_run_history', { run_id: id, limit: 100 });
      }
      await stack.ok(tools, 'workflow_run_list', { limit: 100 });
      assert.ok(stack.outputs.length > 10, 'the outputs were recorded');
      assertNeverShown(stack, MARKER);
    });
  }
});
