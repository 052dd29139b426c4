/**
 * What a host showed its model, in one shape for every host API: the conversation as a list of events (the person's
 * words, the model's own text and tool calls, and the results the host handed back), the system text, and the tools
 * the host offered on this request. The scripted model decides from this alone, as a real model would: it never sees
 * the Rimthan server's internals, only what the host put in the request.
 */

/** One thing in the conversation, oldest first. */
export type TranscriptEvent =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'call'; readonly id: string; readonly name: string; readonly args: Record<string, unknown> }
  | { readonly kind: 'result'; readonly id: string; readonly text: string; readonly isError: boolean }
  /** A message from another agent of the host (Codex: a subagent's final answer). */
  | { readonly kind: 'agent'; readonly author: string; readonly text: string };

/** A tool as the host offered it to the model on this request. */
export interface OfferedTool {
  /** The name the model calls it by (Codex namespaced tools as `namespace.name`). */
  readonly name: string;
  readonly description: string;
  /** The input schema exactly as the host sent it. */
  readonly schema: unknown;
  /** How many bytes of the request this tool's definition took (its JSON, as the host serialised it). */
  readonly bytes: number;
}

export interface Transcript {
  readonly system: string;
  readonly events: readonly TranscriptEvent[];
  readonly tools: readonly OfferedTool[];
}

/** A tool call the scripted model makes. */
export interface ModelCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** What the scripted model answers: tool calls (run by the host, possibly in parallel) or a final text. */
export type ModelTurn =
  | { readonly kind: 'calls'; readonly calls: readonly ModelCall[]; readonly text?: string }
  | { readonly kind: 'text'; readonly text: string };

/** The first thing the person said (the task), without the host's own reminders. */
export function taskText(t: Transcript): string {
  return t.events.find((e): e is Extract<TranscriptEvent, { kind: 'user' }> => e.kind === 'user')?.text ?? '';
}

/** Every call with the result the host returned for it (undefined while none came back), oldest first. */
export function callsWithResults(t: Transcript): {
  index: number;
  call: Extract<TranscriptEvent, { kind: 'call' }>;
  result?: Extract<TranscriptEvent, { kind: 'result' }>;
}[] {
  const results = new Map<string, Extract<TranscriptEvent, { kind: 'result' }>>();
  for (const e of t.events) if (e.kind === 'result') results.set(e.id, e);
  const out: ReturnType<typeof callsWithResults> = [];
  t.events.forEach((e, index) => {
    if (e.kind !== 'call') return;
    const result = results.get(e.id);
    out.push(result === undefined ? { index, call: e } : { index, call: e, result });
  });
  return out;
}

/**
 * The payload of a tool result as the host framed it: Codex puts `Wall time: … seconds\nOutput:\n` before an MCP
 * tool's output (the compact JSON of its structured content); Claude Code hands the JSON as it is.
 */
export function toolPayload(text: string): string {
  const m = /^Wall time: [0-9.]+ seconds\nOutput:\n/.exec(text);
  return m === null ? text : text.slice(m[0].length);
}
