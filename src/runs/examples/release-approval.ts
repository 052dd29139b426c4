/**
 * `release_approval` v1: drafts release notes from a version and its changes, then waits for a human decision. Approved
 * → publishes and completes; rejected → revises the notes with the reviewer's comment and asks again.
 */
import { defineFlow } from '../flow/define.js';

export type ReleaseInput = { version: string; changes: string[] };
export type ReleaseState = {
  version: string;
  changes: string[];
  notes: string;
  round: number;
  approved: boolean;
  comment: string;
  published: boolean;
  publication_key: string;
};

/** Release notes in Markdown: a heading and one bullet per change. */
export function draftNotes(version: string, changes: readonly string[]): string {
  return [`# Release ${version}`, '', ...changes.map((c) => `- ${c}`)].join('\n');
}

export const releaseApprovalFlow = defineFlow<ReleaseInput, ReleaseState>({
  name: 'release_approval',
  version: 'v1',
  description:
    'Drafts release notes, waits for approval (resume with approved and an optional comment), then publishes.',
  inputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    required: ['version', 'changes'],
    properties: {
      version: { type: 'string', pattern: '^v?[0-9]+\\.[0-9]+\\.[0-9]+([-+][0-9A-Za-z.-]+)?$', maxLength: 64 },
      changes: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 500 } },
    },
  },
  resumeSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    required: ['approved'],
    properties: {
      approved: { type: 'boolean' },
      comment: { type: 'string', maxLength: 2000 },
    },
  },
  initialState: (input) => ({
    version: input.version,
    changes: input.changes,
    notes: '',
    round: 0,
    approved: false,
    comment: '',
    published: false,
    publication_key: '',
  }),
  graph: {
    start: 'draft_notes',
    vertices: {
      draft_notes: {
        label: 'Draft release notes',
        run: ({ state }) => ({ notes: draftNotes(state.version, state.changes), round: 1 }),
        next: 'await_approval',
      },
      await_approval: {
        label: 'Await approval',
        run: ({ resume, interrupt, state }) => {
          if (resume === undefined)
            return interrupt(`review the release notes for ${state.version} (round ${state.round})`);
          const comment = typeof resume['comment'] === 'string' ? resume['comment'] : '';
          return { approved: resume['approved'] === true, comment };
        },
        next: (state) => (state.approved ? 'publish' : 'revise_notes'),
      },
      revise_notes: {
        label: 'Revise release notes',
        run: ({ state }) => ({
          notes: `${draftNotes(state.version, state.changes)}\n\n> Revision ${state.round + 1}: ${state.comment}`,
          round: state.round + 1,
        }),
        next: 'await_approval',
      },
      publish: {
        label: 'Publish release notes',
        retry: { attempts: 3, backoffMs: 200 },
        timeoutMs: 30_000,
        // A real publisher would send ctx.idempotencyKey with the request so a repeated try cannot publish twice.
        run: ({ idempotencyKey }) => ({ published: true, publication_key: idempotencyKey }),
      },
    },
  },
});
