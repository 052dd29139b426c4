/**
 * The Anthropic Messages API as Claude Code speaks it (`POST /v1/messages?beta=true`, `stream: true`): a request is read
 * into a Transcript, and a scripted turn is written back as the server-sent events the API streams (message_start,
 * one content block per text or tool_use, message_delta with the stop reason, message_stop).
 */
import type { ServerResponse } from 'node:http';
import type { ModelTurn, OfferedTool, Transcript, TranscriptEvent } from './transcript.js';

type Block = Record<string, unknown>;

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Block[]) : [];
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .map((b) => {
      if (b['type'] === 'text') return String(b['text']);
      if (b['type'] === 'tool_reference') return `tool_reference:${String(b['tool_name'])}`;
      return '';
    })
    .join('\n');
}

/** Host reminders ride in user messages; they are the host's words, not the person's. */
function isHostReminder(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>');
}

export function anthropicTranscript(body: Record<string, unknown>): Transcript {
  const system: string[] = [textOf(body['system'])];
  const events: TranscriptEvent[] = [];
  for (const message of (body['messages'] as { role: string; content: unknown }[] | undefined) ?? []) {
    if (message.role === 'system') {
      system.push(textOf(message.content));
      continue;
    }
    for (const block of blocksOf(message.content)) {
      const type = block['type'];
      if (message.role === 'assistant') {
        if (type === 'text') events.push({ kind: 'text', text: String(block['text']) });
        else if (type === 'tool_use')
          events.push({
            kind: 'call',
            id: String(block['id']),
            name: String(block['name']),
            args: (block['input'] as Record<string, unknown> | undefined) ?? {},
          });
      } else if (type === 'tool_result') {
        events.push({
          kind: 'result',
          id: String(block['tool_use_id']),
          text: textOf(block['content']),
          isError: block['is_error'] === true,
        });
      } else if (type === 'text' && !isHostReminder(String(block['text']))) {
        events.push({ kind: 'user', text: String(block['text']) });
      }
    }
  }
  const tools: OfferedTool[] = ((body['tools'] as Block[] | undefined) ?? []).map((tool) => ({
    name: String(tool['name']),
    description: typeof tool['description'] === 'string' ? tool['description'] : '',
    schema: tool['input_schema'],
    bytes: Buffer.byteLength(JSON.stringify(tool)),
  }));
  return { system: system.join('\n'), events, tools };
}

let sequence = 0;

/** Streams `turn` as one assistant message. */
export function writeAnthropicTurn(res: ServerResponse, model: string, turn: ModelTurn): void {
  const id = `msg_scripted_${String(++sequence)}`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: Record<string, unknown>): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  };
  const usage = { input_tokens: 1, output_tokens: 1 };
  send('message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage },
  });
  let index = 0;
  const text = turn.kind === 'text' ? turn.text : turn.text;
  if (text !== undefined && text !== '') {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index, delta: { type: 'text_delta', text } });
    send('content_block_stop', { index });
    index++;
  }
  if (turn.kind === 'calls') {
    for (const call of turn.calls) {
      const toolId = `toolu_scripted_${String(++sequence)}`;
      send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: toolId, name: call.name, input: {} },
      });
      send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) },
      });
      send('content_block_stop', { index });
      index++;
    }
  }
  send('message_delta', {
    delta: { stop_reason: turn.kind === 'calls' ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  send('message_stop', {});
  res.end();
}
