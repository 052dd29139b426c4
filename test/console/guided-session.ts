/**
 * A guided session in progress, as a participant's repository holds it: the packaged research workflow driven
 * through rimthan/participant (test/support/participant-drive.ts) against a real `rimthan serve` signing with the
 * console's key (objective, desk findings and a validator finding carry the marker) to the decision-record step, then
 * `.rimthan/workflow-session.json` written into a workspace folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionState } from '../../src/participant/index.js';
import { BODIES } from '../mcp/support/research-artifacts.js';
import { researchSessionAt, stdioServe } from '../support/participant-drive.js';
import { MARKER } from './fixtures.js';
import { SIGNING_SECRET } from './support.js';

export type Session = SessionState;
export { writeSessionFile } from '../support/participant-drive.js';

/** Drives the packaged workflow to decision-record (one validator failing once) and returns the session file. */
export async function sessionAtDecisionRecord(): Promise<Session> {
  const home = mkdtempSync(join(tmpdir(), 'rimthan-console-serve-'));
  try {
    const { session } = await researchSessionAt(stdioServe(home, SIGNING_SECRET), 'decision-record', {
      objective: `Pick the queue for billing events ${MARKER}`,
      bodies: { 'desk-findings': `${BODIES['desk-findings'] ?? ''}\nNoted by ${MARKER}.\n` },
      failOnce: ['evidence-quality'],
      finding: `claim C2 cites a single unrepeated measurement (${MARKER})`,
    });
    return session;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
