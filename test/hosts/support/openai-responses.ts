/**
 * The OpenAI Responses API as Codex speaks it (`POST /v1/responses`, `stream: true`): a request's `input` items and
 * `tools` are read into a Transcript, and a scripted turn is streamed back as response.created, one
 * response.output_item.done per message or function call, and response.completed. Tools Codex groups in a namespace
 * (an MCP server's tools, the multi-agent tools) are named `namespace.tool` in the transcript.
 */
import type { ServerResponse } from 'node:http';
import type { ModelTurn, OfferedTool, Transcript, TranscriptEvent } from './transcript.js';

type Item = Record<string, unknown>;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Item[]).map((part) => (typeof part['text'] === 'string' ? part['text'] : '')).join('\n');
}

/** Codex wraps its own context (environment, AGENTS.md, skills) in tags inside user messages. */
function isHostContext(text: string): boolean {
  return /^\s*<(environment_context|user_instructions|skills_instructions|permissions|turn_aborted)/.test(text);
}

const SEPARATOR = '.';

export function qualified(namespace: unknown, name: unknown): string {
  return typeof namespace === 'string' && namespace !== '' ? `${namespace}${SEPARATOR}${String(name)}` : String(name);
}

export function responsesTranscript(body: Record<string, unknown>): Transcript {
  const system: string[] = [typeof body['instructions'] === 'string' ? body['instructions'] : ''];
  const events: TranscriptEvent[] = [];
  for (const item of (body['input'] as Item[] | undefined) ?? []) {
    const type = item['type'];
    if (type === 'message') {
      const text = contentText(item['content']);
      if (item['role'] === 'developer' || item['role'] === 'system') system.push(text);
      else if (item['role'] === 'assistant') events.push({ kind: 'text', text });
      else if (!isHostContext(text)) events.push({ kind: 'user', text });
    } else if (type === 'function_call') {
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(String(item['arguments'])) as Record<string, unknown>;
      } catch {
        args = {};
      }
      events.push({
        kind: 'call',
        id: String(item['call_id']),
        name: qualified(item['namespace'], item['name']),
        args,
      });
    } else if (type === 'function_call_output') {
      const output = item['output'];
      const text =
        typeof output === 'string'
          ? output
          : Array.isArray(output)
            ? contentText(output)
            : contentText((output as Item | undefined)?.['content']);
      const success = (output as Item | undefined)?.['success'];
      events.push({ kind: 'result', id: String(item['call_id']), text, isError: success === false });
    }
  }
  const tools: OfferedTool[] = [];
  for (const tool of (body['tools'] as Item[] | undefined) ?? []) {
    if (tool['type'] === 'namespace') {
      for (const inner of (tool['tools'] as Item[] | undefined) ?? [])
        tools.push({
          name: qualified(tool['name'], inner['name']),
          description: typeof inner['description'] === 'string' ? inner['description'] : '',
          schema: inner['parameters'],
          bytes: Buffer.byteLength(JSON.stringify(inner)),
        });
    } else {
      tools.push({
        name: String(tool['name'] ?? tool['type']),
        description: typeof tool['description'] === 'string' ? tool['description'] : '',
        schema: tool['parameters'],
        bytes: Buffer.byteLength(JSON.stringify(tool)),
      });
    }
  }
  return { system: system.join('\n'), events, tools };
}

let sequence = 0;

/** Streams `turn` as one response. */
export function writeResponsesTurn(res: ServerResponse, turn: ModelTurn): void {
  const id = `resp_scripted_${String(++sequence)}`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: Item): void => {
    res.write(`event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  send({ type: 'response.created', response: { id } });
  const items: Item[] = [];
  const text = turn.kind === 'text' ? turn.text : turn.text;
  if (text !== undefined && text !== '')
    items.push({
      type: 'message',
      role: 'assistant',
      id: `msg_scripted_${String(++sequence)}`,
      content: [{ type: 'output_text', text }],
    });
  if (turn.kind === 'calls')
    for (const call of turn.calls) {
      const n = String(++sequence);
      const dot = call.name.indexOf(SEPARATOR);
      const [namespace, name] = dot < 0 ? [undefined, call.name] : [call.name.slice(0, dot), call.name.slice(dot + 1)];
      items.push({
        type: 'function_call',
        id: `fc_scripted_${n}`,
        call_id: `call_scripted_${n}`,
        name,
        ...(namespace === undefined ? {} : { namespace }),
        arguments: JSON.stringify(call.args),
      });
    }
  items.forEach((item, index) => send({ type: 'response.output_item.done', output_index: index, item }));
  send({
    type: 'response.completed',
    response: {
      id,
      usage: {
        input_tokens: 1,
        input_tokens_details: null,
        output_tokens: 1,
        output_tokens_details: null,
        total_tokens: 2,
      },
    },
  });
  res.end();
}
