/**
 * The real Claude Code CLI (pinned in devDependencies) completes every workflow of the packaged active release with a
 * scripted model: one route scenario per workflow (enumerated from the built release, so a workflow added later is
 * walked here too), over stdio, validators as Claude Code's own subagents with the scenario's failed reports repaired.
 */
import { after, describe, test } from 'node:test';
import { CLAUDE_CODE } from './support/host-profiles.js';
import { LibraryHostSuite } from './support/library-suite.js';
import { hostSkipReason } from './support/run-host.js';

const binary = CLAUDE_CODE.binary();
const skip = hostSkipReason('Claude Code', binary) ?? false;
const suite = new LibraryHostSuite(CLAUDE_CODE);

describe(`Claude Code ${binary?.version ?? ''} completes every workflow of ${suite.release.release}`, { skip }, () => {
  after(() => suite.close());
  for (const route of suite.routes)
    test(`${route.workflow.id}@${route.workflow.version}: ${route.scenario.file} completed`, async (t) => {
      const { run } = await suite.walk(route);
      t.diagnostic(`${(run.elapsedMs / 1000).toFixed(1)} s, ${String(run.requests.length)} model turns`);
    });
});
