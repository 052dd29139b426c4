/** `workflow_definition_list`: the catalog's definitions, sorted, at most 100. */
import type { JsonObject } from '../core/index.js';
import { succeed } from './result.js';
import { closedObject } from './schemas.js';
import { RunToolName } from './types.js';
import type { ToolSpec } from './types.js';

/** Most definitions one answer lists; `truncated` says when more exist. */
export const MAX_LISTED_DEFINITIONS = 100;

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const definitionListSpec: ToolSpec = {
  name: RunToolName.DefinitionList,
  title: 'List workflow definitions',
  description:
    'Lists up to 100 workflow definitions (name, version, description, strict input schema, resume support and resume schema) sorted by name then version.',
  inputSchema: closedObject({}),
  outputSchema: closedObject(
    {
      definitions: {
        type: 'array',
        maxItems: MAX_LISTED_DEFINITIONS,
        items: closedObject(
          {
            name: { type: 'string' },
            version: { type: 'string' },
            description: { type: 'string' },
            input_schema: { type: 'object' },
            resume_supported: { type: 'boolean' },
            resume_schema: { type: 'object' },
          },
          ['name', 'version', 'description', 'input_schema', 'resume_supported'],
        ),
      },
      truncated: { type: 'boolean' },
    },
    ['definitions', 'truncated'],
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },

  handle(_args, ctx) {
    const all = [...ctx.catalog.list()].sort(
      (a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.version, b.version),
    );
    const definitions = all.slice(0, MAX_LISTED_DEFINITIONS).map((d) => {
      const entry: JsonObject = {
        name: d.name,
        version: d.version,
        description: d.description,
        input_schema: d.inputSchema,
        resume_supported: d.resumeSchema !== undefined,
      };
      if (d.resumeSchema !== undefined) entry['resume_schema'] = d.resumeSchema;
      return entry;
    });
    return Promise.resolve(succeed({ definitions, truncated: all.length > MAX_LISTED_DEFINITIONS }));
  },
};
