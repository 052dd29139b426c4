/**
 * The example flows the console tests drive, in ONE place: names, versions, inputs and what their runs show. When the
 * example flows change (the release-notes flow replacing today's `release_approval`), only this file changes.
 */
import type { JsonObject } from '../../src/core/index.js';

/** A participant marker: it goes into run inputs, session artifacts and the objective, and must never be shown. */
export const MARKER = 'ZQXMARKER7731';

export const APPROVAL_FLOW = {
  name: 'release_approval',
  version: 'v1',
  /** What a person types into the generated start form: field id → text (string arrays: one item per line). */
  form: {
    version: '2.4.0',
    changes: `Faster exports\nFix the login loop ${MARKER}`,
  },
  /** The same input as the run tool receives it. */
  input: { version: '2.4.0', changes: ['Faster exports', `Fix the login loop ${MARKER}`] } as JsonObject,
  /** The vertex whose interrupt waits for a person, as the timeline labels it. */
  approvalLabel: 'Await approval',
  /** The boolean field of the resume form that approves, and what the run says when it is done. */
  approveField: 'approved',
  /** A resume the resume schema accepts, and one it refuses. */
  resume: { approved: true } as JsonObject,
  badResume: { approved: 'yes' } as JsonObject,
  firstVertexLabel: 'Draft release notes',
} as const;

/** A flow that runs to completion on its own (the live stream's end-to-end case), with the history it writes. */
export const QUICK_FLOW = {
  name: 'counter_flow',
  version: 'v1',
  input: { count: 1 } as JsonObject,
  kinds: ['run_started', 'vertex_completed', 'vertex_completed', 'vertex_completed', 'run_completed'],
} as const;
