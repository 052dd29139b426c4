/** `workflow_run_list`: a page of this session's runs in creation order, with an opaque cursor. */
import { decodeListCursor, encodeListCursor } from './list-cursor.js';
import { refuse, RunToolErrorCode, succeed } from './result.js';
import type { RunToolResult } from './result.js';
import { safeRunResult } from './safe-result.js';
import { closedObject, limitSchema, PAGE_LIMIT, safeRunSchema } from './schemas.js';
import { RunToolName } from './types.js';
import type { ToolSpec } from './types.js';

export const runListSpec: ToolSpec = {
  name: RunToolName.RunList,
  title: 'List workflow runs',
  description:
    'Lists the runs of this session in creation order as safe metadata, one page at a time, with a next cursor while more remain.',
  inputSchema: closedObject({
    after: { type: 'string', minLength: 1, maxLength: 64, description: 'The next cursor of the previous page.' },
    limit: limitSchema('Page size, 1 to 100 (default 50).'),
  }),
  outputSchema: closedObject(
    {
      runs: { type: 'array', maxItems: PAGE_LIMIT.max, items: safeRunSchema() },
      next: { type: 'string', minLength: 1, description: 'Present when more runs remain.' },
    },
    ['runs'],
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },

  async handle(args, ctx): Promise<RunToolResult> {
    const pageSize = (args['limit'] as number | undefined) ?? PAGE_LIMIT.default;
    let afterSeq: number | undefined;
    if (args['after'] !== undefined) {
      afterSeq = decodeListCursor(args['after'] as string);
      if (afterSeq === undefined)
        return refuse(
          RunToolErrorCode.InvalidArguments,
          'argument "after" is not a cursor issued by workflow_run_list',
        );
    }
    try {
      const rows = await ctx.store.listRuns(ctx.sessionId, {
        ...(afterSeq === undefined ? {} : { after_seq: afterSeq }),
        limit: pageSize + 1,
      });
      const page = rows.slice(0, pageSize);
      const last = page[page.length - 1];
      const value = { runs: page.map((r) => safeRunResult(r, ctx)) };
      return succeed(
        rows.length > pageSize && last !== undefined ? { ...value, next: encodeListCursor(last.created_seq) } : value,
      );
    } catch (error) {
      return ctx.fault(error, 'listing runs');
    }
  },
};
