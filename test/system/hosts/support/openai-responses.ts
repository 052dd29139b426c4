/**
 * The OpenAI Responses API as Codex speaks it (`POST /v1/responses`, `stream: true`), with the bundled model metadata
 * real users get: tools offered in `additional_tools` input items (namespaces of functions, and the `exec` JavaScript
 * tool), MCP tools deferred until the model runs a client tool search, and sub-agents talking through `agent_message`
 * items. A request is read into a Transcript; a scripted turn is streamed back as response.created, one
 * response.output_item.done per item, and response.completed.
 *
 * Names in the transcript: a function as `namespace.name` (`mcp__rimthan.rimthan_start_workflow`,
 * `collaboration.spawn_agent`), a custom tool as `custom:name` with its text input under `input`, the tool search as
 * `tool_search` with its `query`.
 */
import type { ServerResponse } from 'node:http';
import type { ModelTurn, OfferedTool, Transcript, TranscriptEvent } from './transcript.js';

type Item = Record<string, unknown>;

const SEPARATOR = '.';
export const CUSTOM = 'custom:';
export const TOOL_SEARCH = 'tool_search';

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Item[])
    .map((part) =>
      typeof part['text'] === 'string'
        ? part['text']
        : typeof part['encrypted_content'] === 'string'
          ? part['encrypted_content']
          : '',
    )
    .join('');
}

/** Codex wraps its own context (environment, AGENTS.md, skills) in tags inside user messages. */
function isHostContext(text: string): boolean {
  return /^\s*<(environment_context|user_instructions|skills_instructions|permissions|turn_aborted)/.test(text);
}

export function qualified(namespace: unknown, name: unknown): string {
  return typeof namespace === 'string' && namespace !== '' ? `${namespace}${SEPARATOR}${String(name)}` : String(name);
}

function offered(into: OfferedTool[], tools: unknown, namespace?: string): void {
  for (const tool of (tools as Item[] | undefined) ?? []) {
    if (tool['type'] === 'namespace') {
      offered(into, tool['tools'], String(tool['name']));
      continue;
    }
    const name = tool['type'] === 'custom' ? `${CUSTOM}${String(tool['name'])}` : qualified(namespace, tool['name']);
    const existing = into.findIndex((t) => t.name === name);
    const entry: OfferedTool = {
      name,
      description: typeof tool['description'] === 'string' ? tool['description'] : '',
      schema: tool['parameters'],
      bytes: Buffer.byteLength(JSON.stringify(tool)),
    };
    if (existing >= 0) into[existing] = entry;
    else into.push(entry);
  }
}

/** `Message Type: …\nTask name: …\nSender: …\nPayload:\n<text>`: the type, sender and payload of an agent message. */
function agentMessage(text: string): { type: string; sender: string; payload: string } {
  const type = /^Message Type: (\S+)/m.exec(text)?.[1] ?? '';
  const sender = /^Sender: (\S+)/m.exec(text)?.[1] ?? '';
  const at = text.indexOf('Payload:\n');
  return { type, sender, payload: at < 0 ? text : text.slice(at + 'Payload:\n'.length) };
}

export function responsesTranscript(body: Record<string, unknown>): Transcript {
  const system: string[] = [typeof body['instructions'] === 'string' ? body['instructions'] : ''];
  const events: TranscriptEvent[] = [];
  const tools: OfferedTool[] = [];
  offered(tools, body['tools']);
  for (const item of (body['input'] as Item[] | undefined) ?? []) {
    const type = item['type'];
    if (type === 'message') {
      const text = contentText(item['content']);
      if (item['role'] === 'developer' || item['role'] === 'system') system.push(text);
      else if (item['role'] === 'assistant') events.push({ kind: 'text', text });
      else if (isHostContext(text)) system.push(text);
      else events.push({ kind: 'user', text });
    } else if (type === 'additional_tools') {
      offered(tools, item['tools']);
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
    } else if (type === 'custom_tool_call') {
      events.push({
        kind: 'call',
        id: String(item['call_id']),
        name: `${CUSTOM}${String(item['name'])}`,
        args: { input: item['input'] },
      });
    } else if (type === 'tool_search_call') {
      events.push({
        kind: 'call',
        id: String(item['call_id']),
        name: TOOL_SEARCH,
        args: (item['arguments'] as Item | undefined) ?? {},
      });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const output = item['output'];
      const text = typeof output === 'string' ? output : contentText(output);
      events.push({ kind: 'result', id: String(item['call_id']), text, isError: false });
    } else if (type === 'tool_search_output') {
      offered(tools, item['tools']);
      const found: string[] = [];
      for (const ns of (item['tools'] as Item[] | undefined) ?? [])
        for (const t of (ns['tools'] as Item[] | undefined) ?? []) found.push(qualified(ns['name'], t['name']));
      events.push({ kind: 'result', id: String(item['call_id']), text: found.join('\n'), isError: false });
    } else if (type === 'agent_message') {
      const message = agentMessage(contentText(item['content']));
      if (message.type === 'NEW_TASK') events.push({ kind: 'user', text: message.payload });
      else events.push({ kind: 'agent', author: message.sender, text: message.payload });
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
      const ids = { id: `item_scripted_${n}`, call_id: `call_scripted_${n}` };
      if (call.name === TOOL_SEARCH) {
        items.push({
          type: 'tool_search_call',
          ...ids,
          status: 'completed',
          execution: 'client',
          arguments: call.args,
        });
      } else if (call.name.startsWith(CUSTOM)) {
        items.push({
          type: 'custom_tool_call',
          ...ids,
          name: call.name.slice(CUSTOM.length),
          input: String(call.args['input']),
        });
      } else {
        const dot = call.name.indexOf(SEPARATOR);
        const [namespace, name] =
          dot < 0 ? [undefined, call.name] : [call.name.slice(0, dot), call.name.slice(dot + 1)];
        items.push({
          type: 'function_call',
          ...ids,
          name,
          ...(namespace === undefined ? {} : { namespace }),
          arguments: JSON.stringify(call.args),
        });
      }
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
