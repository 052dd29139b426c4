/**
 * The example approval flow the console tests drive, in ONE place: its name, version and inputs. When the example
 * flows change (the release-notes flow replacing today's `release_approval`), only this file changes.
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
  firstVertexLabel: 'Draft release notes',
} as const;
