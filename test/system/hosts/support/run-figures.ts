/**
 * What a host run showed its model, in figures and facts: the Rimthan tool definitions as the host sent them, the
 * Rimthan results the model read (in the main conversation and in subagents), the bytes of every model request, the
 * model turns, the statuses Rimthan answered, and the validator subagents' conversations. Tests assert on these; the
 * hosts bench prints them.
 */
import type { RecordedRequest } from './model-endpoint.js';
import type { Transcript } from './transcript.js';
import { callsWithResults, toolPayload } from './transcript.js';

export interface RimthanExchange {
  readonly tool: string;
  readonly status: string | undefined;
  readonly resultBytes: number;
  readonly result: Record<string, unknown> | undefined;
}

export interface RunFigures {
  /** Bytes of the Rimthan tool definitions in the last main request (as the host serialised them). */
  readonly toolDefinitionBytes: number;
  readonly toolDefinitions: ReadonlyMap<string, number>;
  /** Bytes of every Rimthan tool result (and resource read) the models read, main and subagents. */
  readonly resultBytes: number;
  /** The same, in the main conversation only (what the person's agent read). */
  readonly mainResultBytes: number;
  readonly exchanges: readonly RimthanExchange[];
  /** Bytes of every model request body the host sent. */
  readonly requestBytes: number;
  readonly turns: number;
  readonly mainTurns: number;
  /** Validator id → the number of subagent conversations that ran it. */
  readonly validatorRuns: ReadonlyMap<string, number>;
}

const isRimthan = (name: string): boolean => /rimthan/.test(name);

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The Rimthan exchanges of one conversation (its last request holds them all). */
export function rimthanExchanges(t: Transcript): RimthanExchange[] {
  return callsWithResults(t)
    .filter(({ call, result }) => isRimthan(call.name) && result !== undefined)
    .map(({ call, result }) => {
      const value = parse(toolPayload(result!.text));
      return {
        tool: call.name,
        status: typeof value?.['status'] === 'string' ? value['status'] : undefined,
        resultBytes: Buffer.byteLength(result!.text),
        result: value,
      };
    });
}

/** The last request of each conversation: a conversation's requests grow, so its last one holds all of it. */
export function conversations(requests: readonly RecordedRequest[]): RecordedRequest[] {
  const out: RecordedRequest[] = [];
  requests.forEach((request, i) => {
    const next = requests.slice(i + 1).find((r) => r.role === request.role);
    const continues =
      next !== undefined &&
      next.transcript.events.length > request.transcript.events.length &&
      JSON.stringify(next.transcript.events[0]) === JSON.stringify(request.transcript.events[0]);
    if (!continues) out.push(request);
  });
  return out;
}

export function runFigures(requests: readonly RecordedRequest[]): RunFigures {
  const mains = requests.filter((r) => r.role === 'main');
  const lastMain = mains[mains.length - 1];
  const definitions = new Map<string, number>();
  for (const tool of lastMain?.transcript.tools ?? []) if (isRimthan(tool.name)) definitions.set(tool.name, tool.bytes);
  const ends = conversations(requests);
  const exchanges = ends.flatMap((r) => rimthanExchanges(r.transcript));
  const validatorRuns = new Map<string, number>();
  for (const r of ends)
    if (r.role.startsWith('validator:')) {
      const id = r.role.slice('validator:'.length);
      validatorRuns.set(id, (validatorRuns.get(id) ?? 0) + 1);
    }
  return {
    toolDefinitionBytes: [...definitions.values()].reduce((a, b) => a + b, 0),
    toolDefinitions: definitions,
    resultBytes: exchanges.reduce((a, e) => a + e.resultBytes, 0),
    mainResultBytes:
      lastMain === undefined ? 0 : rimthanExchanges(lastMain.transcript).reduce((a, e) => a + e.resultBytes, 0),
    exchanges,
    requestBytes: requests.reduce((a, r) => a + r.bytes, 0),
    turns: requests.length,
    mainTurns: mains.length,
    validatorRuns,
  };
}
