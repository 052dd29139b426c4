/**
 * A run's live timeline as server-sent events. The stream reads the run with `workflow_run_get` and follows its
 * history cursors with `workflow_run_history`, a few times a second, until the run is terminal and its history read
 * to the end. It only reads (the run executes on, undisturbed), and it stops when the client goes away.
 *
 * Events: `run` (the safe run result, when it changed), `entries` (history entries; the event id is the cursor
 * `revision.event_id`, so a reconnecting EventSource continues where it stopped), `end`, and `error`.
 */
import type { ServerResponse } from 'node:http';
import { isJsonObject } from '../../core/index.js';
import type { JsonObject } from '../../core/index.js';
import { TERMINAL_STATUSES } from '../../runs/index.js';
import type { RunStatus } from '../../runs/index.js';
import { RunToolName } from '../../tools/index.js';
import type { ConsoleRuns } from './runs-api.js';

export interface HistoryCursor {
  readonly revision: number;
  readonly eventId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Parses `revision.event_id` (an SSE Last-Event-ID) or undefined. */
export function parseCursor(text: string | undefined): HistoryCursor | undefined {
  const match = text === undefined ? null : /^(\d{1,10})\.([0-9a-f-]{36})$/.exec(text);
  if (match === null || !UUID.test(match[2] ?? '')) return undefined;
  return { revision: Number(match[1]), eventId: match[2] ?? '' };
}

function write(res: ServerResponse, event: string, data: unknown, id?: string): void {
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export interface StreamOptions {
  /**
   * Between two reads while nothing new arrived (default 250 ms); it doubles while the run stays quiet (a run waiting
   * for input), up to eight times this, and drops back as soon as something happens.
   */
  readonly intervalMs?: number;
  /** A comment line keeps proxies from closing a quiet stream (default 15 s). */
  readonly heartbeatMs?: number;
}

/**
 * Streams `runId` of `session` to `res`. A run the session cannot see is answered by `notFound` before the stream
 * starts, exactly as the tool refuses it.
 */
export async function streamRunEvents(
  res: ServerResponse,
  runs: ConsoleRuns,
  session: string,
  runId: string,
  start: HistoryCursor | undefined,
  refuse: (error: { code: string; message: string }) => void,
  opts: StreamOptions = {},
): Promise<void> {
  const first = await runs.call(session, RunToolName.RunGet, { run_id: runId });
  if (!first.ok) return refuse(first.error);
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 1000\n\n');
  let run: JsonObject = first.value;
  let shown = '';
  let cursor = start;
  let lastBeat = Date.now();
  const interval = opts.intervalMs ?? 250;
  let wait = interval;
  const heartbeat = opts.heartbeatMs ?? 15_000;
  while (!closed) {
    const text = JSON.stringify(run);
    if (text !== shown) {
      write(res, 'run', run);
      shown = text;
      wait = interval;
    }
    const args: JsonObject = { run_id: runId, limit: 100 };
    if (cursor !== undefined) {
      args['after_revision'] = cursor.revision;
      if (cursor.eventId !== undefined) args['after_event_id'] = cursor.eventId;
    }
    const page = await runs.call(session, RunToolName.RunHistory, args);
    if (closed) break;
    if (!page.ok) {
      write(res, 'error', { error: page.error });
      break;
    }
    const entries = (page.value['entries'] as JsonObject[] | undefined) ?? [];
    const last = entries[entries.length - 1];
    if (isJsonObject(last)) {
      cursor = { revision: last['revision'] as number, eventId: last['event_id'] as string };
      write(res, 'entries', { entries }, `${String(cursor.revision)}.${String(cursor.eventId)}`);
    }
    const more = page.value['next_revision'] !== undefined;
    const terminal = TERMINAL_STATUSES.has(run['run_status'] as RunStatus);
    if (terminal && !more && entries.length === 0) {
      write(res, 'end', { run_status: run['run_status'] });
      break;
    }
    if (entries.length > 0) wait = interval;
    if (!more && entries.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, interval * 8);
      if (Date.now() - lastBeat >= heartbeat) {
        res.write(': keep-alive\n\n');
        lastBeat = Date.now();
      }
    }
    const next = await runs.call(session, RunToolName.RunGet, { run_id: runId });
    if (!next.ok) {
      write(res, 'error', { error: next.error });
      break;
    }
    run = next.value;
  }
  res.end();
}
