/**
 * Reading what the stdio tap (stdio-tap.ts) logged: the JSON-RPC messages between a host and `rimthan serve`, with
 * the protocol revision the host settled on and how long the server took to answer the host's first message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The compiled tap, to register in front of `rimthan serve`. */
export const TAP_MAIN = fileURLToPath(new URL('./stdio-tap.js', import.meta.url));

export interface TapEntry {
  readonly at_ms: number;
  readonly dir: 'in' | 'out';
  readonly message: Record<string, unknown> | string;
}

export function readTap(path: string): TapEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TapEntry);
}

export interface Negotiation {
  /** The methods the host sent before its first tool call, in order (e.g. server/discover, initialize). */
  readonly opening: readonly string[];
  /** The protocol revision the session used: initialize's answer, or the 2026 per-request `_meta` revision. */
  readonly protocol: string | undefined;
  /** Milliseconds from the host's first message to the server's first answer. */
  readonly firstAnswerMs: number | undefined;
}

export function negotiation(tap: readonly TapEntry[]): Negotiation {
  const messages = tap.filter(
    (e): e is TapEntry & { message: Record<string, unknown> } => typeof e.message === 'object',
  );
  const firstIn = messages.find((e) => e.dir === 'in');
  const firstOut = messages.find((e) => e.dir === 'out' && 'id' in e.message);
  const opening: string[] = [];
  for (const e of messages) {
    if (e.dir !== 'in' || typeof e.message['method'] !== 'string') continue;
    if (e.message['method'] === 'tools/call') break;
    opening.push(e.message['method']);
  }
  let protocol: string | undefined;
  const init = messages.find((e) => e.dir === 'in' && e.message['method'] === 'initialize');
  if (init !== undefined) {
    const answer = messages.find((e) => e.dir === 'out' && e.message['id'] === init.message['id']);
    protocol =
      ((answer?.message['result'] as Record<string, unknown> | undefined)?.['protocolVersion'] as string) ?? undefined;
  } else {
    const call = messages.find((e) => e.dir === 'in' && e.message['method'] === 'tools/call');
    const meta = (call?.message['params'] as Record<string, unknown> | undefined)?.['_meta'] as
      Record<string, unknown> | undefined;
    protocol = meta?.['io.modelcontextprotocol/protocolVersion'] as string | undefined;
  }
  return {
    opening,
    protocol,
    firstAnswerMs: firstIn === undefined || firstOut === undefined ? undefined : firstOut.at_ms - firstIn.at_ms,
  };
}
