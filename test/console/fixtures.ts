/**
 * The example flows the console tests drive, in ONE place: names, versions, inputs and what their runs show. When the
 * example flows change, only this file changes.
 */
import { join } from 'node:path';
import type { JsonObject } from '../../src/core/index.js';
import { repositoryWith } from '../runs/fixtures/git-repo.js';

/** A participant marker: it goes into run inputs, session artifacts and the objective, and must never be shown. */
export const MARKER = 'ZQXMARKER7731';

/** The Git work tree the approval runs read, relative to the console's working directory (it carries the marker). */
const APPROVAL_REPOSITORY = `app-${MARKER}`;

/** The shipped example flow that interrupts for a person's approval: release_notes (docs/harness/example-flows.md). */
export const APPROVAL_FLOW = {
  name: 'release_notes',
  version: 'v1',
  /** What a person types into the generated start form: field id → text. */
  form: { repository: APPROVAL_REPOSITORY, since: 'v2.3.0', version: '2.4.0' },
  /** The same input as the run tool receives it. */
  input: { repository: APPROVAL_REPOSITORY, since: 'v2.3.0', version: '2.4.0' } as JsonObject,
  /** The vertex whose interrupt waits for a person, as the timeline labels it. */
  approvalLabel: 'Await approval of the draft',
  /** The boolean field of the resume form that approves. */
  approveField: 'approved',
  /** A resume the resume schema accepts, and one it refuses. */
  resume: { approved: true } as JsonObject,
  badResume: { approved: 'yes' } as JsonObject,
  firstVertexLabel: 'Draft release notes',
} as const;

/** Makes the repository APPROVAL_FLOW reads inside `cwd`: a tag, then two commits the notes group. */
export function prepareApprovalRepository(cwd: string): void {
  repositoryWith(join(cwd, APPROVAL_REPOSITORY), APPROVAL_FLOW.input['since'] as string, [
    'feat: faster exports',
    'fix: the login loop',
  ]);
}
