/**
 * `workflow_run_history`: projected activity entries of one run, paged by revision (see history-page.ts), readable
 * while the run is still executing.
 */
import { isRimthanError } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import type { ActivityEntry, HistoryQuery } from '../runs/store/index.js';
import { STORE_LIMITS } from '../runs/store/index.js';
import { cutHistoryPage } from './history-page.js';
import { refuse, runNotFound, RunToolErrorCode, succeed } from './result.js';
import type { RunToolResult } from './result.js';
import { closedObject, historyEntrySchema, limitSchema, PAGE_LIMIT, uuidSchema } from './schemas.js';
import { RunToolName } from './types.js';
import type { ToolSpec } from './types.js';

/** The public projection of an entry: no run_id or ordinal, optional fields only when present. */
function projectEntry(e: ActivityEntry): JsonObject {
  const out: JsonObject = {
    revision: e.revision,
    event_id: e.event_id,
    kind: e.kind,
    run_status: e.run_status,
    occurred_at: e.occurred_at,
  };
  if (e.vertex_id !== undefined) out['vertex_id'] = e.vertex_id;
  if (e.vertex_label !== undefined) out['vertex_label'] = e.vertex_label;
  if (e.completed_vertices !== undefined) out['completed_vertices'] = e.completed_vertices;
  if (e.total_vertices !== undefined) out['total_vertices'] = e.total_vertices;
  if (e.message !== undefined) out['message'] = e.message;
  return out;
}

export const runHistorySpec: ToolSpec = {
  name: RunToolName.RunHistory,
  title: 'Read workflow run history',
  description:
    'Returns a page of activity entries of one run in revision order, with next_revision and next_event_id cursors while more remain.',
  inputSchema: closedObject(
    {
      run_id: uuidSchema('The run.'),
      after_revision: {
        type: 'integer',
        minimum: 0,
        maximum: STORE_LIMITS.maxCounter, // no run has a higher revision; beyond it the store would refuse the query
        description: 'Continue after this checkpoint revision (next_revision).',
      },
      after_event_id: uuidSchema(
        'With after_revision: continue inside that revision after this event (next_event_id).',
      ),
      limit: limitSchema('Page size, 1 to 100 (default 50).'),
    },
    ['run_id'],
  ),
  outputSchema: closedObject(
    {
      run_id: uuidSchema('The run.'),
      entries: { type: 'array', maxItems: PAGE_LIMIT.max, items: historyEntrySchema() },
      next_revision: { type: 'integer', minimum: 0 },
      next_event_id: uuidSchema('Present when the page ended inside next_revision.'),
    },
    ['run_id', 'entries'],
  ),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  uuidFields: ['run_id', 'after_event_id'],

  async handle(args, ctx): Promise<RunToolResult> {
    const runId = args['run_id'] as string;
    const afterRevision = args['after_revision'] as number | undefined;
    const afterEventId = args['after_event_id'] as string | undefined;
    const limit = (args['limit'] as number | undefined) ?? PAGE_LIMIT.default;
    if (afterEventId !== undefined && afterRevision === undefined) {
      return refuse(RunToolErrorCode.InvalidArguments, 'argument "after_event_id" needs "after_revision"');
    }
    const query: HistoryQuery = {
      ...(afterRevision === undefined ? {} : { after_revision: afterRevision }),
      ...(afterEventId === undefined ? {} : { after_event_id: afterEventId }),
      limit: limit + 1,
    };
    let fetched: ActivityEntry[] | undefined;
    try {
      fetched = await ctx.supervisor.history(runId, query);
    } catch (error) {
      if (afterEventId !== undefined && isRimthanError(error) && error.code === 'invalid_argument') {
        return refuse(RunToolErrorCode.InvalidArguments, 'argument "after_event_id" is not an event of after_revision');
      }
      return ctx.fault(error, 'reading the run history');
    }
    if (fetched === undefined) return runNotFound();
    const page = cutHistoryPage(fetched, limit);
    const value: JsonObject = { run_id: runId, entries: page.entries.map(projectEntry) };
    if (page.next !== undefined) {
      value['next_revision'] = page.next.revision;
      if (page.next.eventId !== undefined) value['next_event_id'] = page.next.eventId;
    }
    return succeed(value);
  },
};
