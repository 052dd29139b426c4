/**
 * A guided session in progress, as a participant's repository holds it: the packaged research workflow driven by a
 * faithful harness through the guided tools (objective, desk findings and a validator finding carry the marker) to
 * the decision-record step, then `.rimthan/workflow-session.json` written into a workspace folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TokenSigner } from '../../src/core/index.js';
import type { JsonObject } from '../../src/core/index.js';
import { folderConsoleStore, releaseProviderOf, SESSION_FILE } from '../../src/console/index.js';
import { guidedCaller } from '../../src/console/guided/guided-call.js';
import type { GuidedToolName } from '../../src/guided/index.js';
import { loadSigningSetup } from '../../src/mcp/index.js';
import { packagedReleaseStore } from '../../src/registry/index.js';
import { confirmed, Participant } from '../mcp/support/participant.js';
import { BODIES } from '../mcp/support/research-artifacts.js';
import { toRouteQuestion } from '../mcp/support/research-run.js';
import { MARKER } from './fixtures.js';
import { SIGNING_SECRET } from './support.js';

export interface Session {
  readonly checkpoint: JsonObject;
  readonly confirmed_state: JsonObject;
}

/** Drives the packaged workflow to decision-record and returns the session file's content. */
export async function sessionAtDecisionRecord(): Promise<Session> {
  const signer = new TokenSigner(loadSigningSetup({ RIMTHAN_WORKFLOW_SIGNING_SECRET: SIGNING_SECRET }).ring);
  const call = guidedCaller({
    releases: releaseProviderOf(folderConsoleStore(packagedReleaseStore())),
    signer,
    maxArgumentBytes: 4 * 1024 * 1024,
  });
  const p = new Participant(async (name, args) => {
    const outcome = await call(name as GuidedToolName, args);
    return outcome.ok
      ? { isError: false, value: outcome.value }
      : { isError: true, value: { error: { ...outcome.error } } };
  });
  p.state = confirmed({ objective: `Pick the queue for billing events ${MARKER}` });
  await toRouteQuestion(p);
  const bodies = { ...BODIES, 'desk-findings': `${BODIES['desk-findings'] ?? ''}\nNoted by ${MARKER}.\n` };
  const routed = await p.continue({ ...(p.state['state'] as JsonObject), research_route: 'desk-research' });
  assert.equal(routed['status'], 'active');
  const failed = await p.submit(await p.prepare(bodies), ['evidence-quality']);
  assert.equal(failed['status'], 'validation_failed');
  const passed = await p.submit(await p.prepare(bodies));
  assert.equal(passed['status'], 'advanced');
  assert.equal(p.currentStep, 'decision-record');
  return { checkpoint: p.checkpoint as JsonObject, confirmed_state: p.state };
}

/** Writes the session file into `workspace` as a harness would. */
export function writeSessionFile(workspace: string, session: Session): void {
  mkdirSync(join(workspace, '.rimthan'), { recursive: true });
  writeFileSync(join(workspace, SESSION_FILE), `${JSON.stringify(session, null, 2)}\n`);
}
