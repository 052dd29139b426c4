/**
 * The one-vertex flow the runs-profile serve tests load with `--flows`: `greeting_flow` v1, input `{ name }` (at most
 * 64 characters), output `{ greeted: true }`. Written as an ES module that imports the built runs library.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const RUNS = pathToFileURL(fileURLToPath(new URL('../../src/runs/index.js', import.meta.url))).href;

export const GREETING_FLOWS_MODULE = `import { defineFlow } from ${JSON.stringify(RUNS)};
export const flows = [
  defineFlow({
    name: 'greeting_flow',
    version: 'v1',
    description: 'Says hello once.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: { name: { type: 'string', maxLength: 64 } },
    },
    graph: { start: 'greet', vertices: { greet: { label: 'Greet', run: async () => ({ greeted: true }) } } },
  }),
];
`;

/** Writes the greeting flows module to `path` (a `.mjs` file) and returns `path`, for `--flows`. */
export function writeGreetingFlows(path: string): string {
  writeFileSync(path, GREETING_FLOWS_MODULE);
  return path;
}
