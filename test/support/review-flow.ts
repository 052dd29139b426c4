/**
 * A flows module (the text of an ES module for `rimthan serve --profile runs --flows FILE`) with one flow that drafts
 * a note, stops for a person's review (resume with `{approved}`: a flat resume schema a form can ask) until it is approved,
 * then files it.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';

const RUNS = pathToFileURL(fileURLToPath(new URL('../../src/runs/index.js', import.meta.url))).href;

/** A flow that stops for a review (resume with `{approved}`), then finishes. */
export const REVIEW_FLOWS_MODULE = `import { defineFlow } from ${JSON.stringify(RUNS)};
const closed = (properties, required) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object', additionalProperties: false, required, properties,
});
export const flows = [
  defineFlow({
    name: 'review_flow',
    version: 'v1',
    description: 'Drafts a note, waits for a review, then files it.',
    inputSchema: closed({ title: { type: 'string', maxLength: 64 } }, ['title']),
    resumeSchema: closed({ approved: { type: 'boolean' } }, ['approved']),
    initialState: (input) => ({ title: input.title, approved: false, filed: false }),
    graph: {
      start: 'draft',
      vertices: {
        draft: { label: 'Draft', run: () => ({}), next: 'review' },
        review: {
          label: 'Review',
          run: ({ resume, interrupt }) => (resume?.approved === true ? { approved: true } : interrupt('review the note')),
          next: 'file',
        },
        file: { label: 'File', run: () => ({ filed: true }) },
      },
    },
  }),
];
`;
