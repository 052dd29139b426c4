/**
 * A local model endpoint for a real host CLI: it takes the host's model requests (Anthropic Messages for Claude Code,
 * OpenAI Responses for Codex), turns each into a Transcript, asks the scripted model what to answer and streams the
 * answer back. It records every request (its size, the tools offered, the transcript) so tests and the hosts bench can
 * say what the host sent to the model. Every run has a turn cap: past it the endpoint answers with a final text, so a
 * scripted loop can never run away.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicTranscript, writeAnthropicTurn } from './anthropic-messages.js';
import { responsesTranscript, writeResponsesTurn } from './openai-responses.js';
import type { ModelTurn, Transcript } from './transcript.js';

export type ModelApi = 'anthropic-messages' | 'openai-responses';

/** One model request as the host sent it. */
export interface RecordedRequest {
  readonly api: ModelApi;
  readonly headers: IncomingMessage['headers'];
  /** The request body's size in bytes. */
  readonly bytes: number;
  readonly body: Record<string, unknown>;
  readonly transcript: Transcript;
  /** What the scripted model answered. */
  readonly turn: ModelTurn;
  /** Which conversation it belongs to, as the scripted model classified it (e.g. "main", "validator:<id>"). */
  readonly role: string;
}

/** The scripted model: a pure decision from what the host showed. */
export interface ScriptedModel {
  /** Which conversation a request belongs to (for the record). */
  roleOf(t: Transcript): string;
  decide(t: Transcript): ModelTurn;
}

export interface ModelEndpoint {
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  /** Set when the turn cap was hit or a request could not be answered: the run is not a valid result. */
  readonly failures: readonly string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startModelEndpoint(
  api: ModelApi,
  model: ScriptedModel,
  options: { readonly maxTurns: number },
): Promise<ModelEndpoint> {
  const requests: RecordedRequest[] = [];
  const failures: string[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const path = req.url ?? '';
      const isTurn =
        req.method === 'POST' &&
        (api === 'anthropic-messages'
          ? path.startsWith('/v1/messages') && !path.includes('count_tokens')
          : path.endsWith('/responses'));
      if (!isTurn) {
        // Claude Code counts tokens; anything else a host asks is not part of the conversation.
        res.writeHead(path.includes('count_tokens') ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(path.includes('count_tokens') ? { input_tokens: Math.ceil(text.length / 4) } : {}));
        return;
      }
      const body = JSON.parse(text) as Record<string, unknown>;
      const transcript = api === 'anthropic-messages' ? anthropicTranscript(body) : responsesTranscript(body);
      let turn: ModelTurn;
      let role = 'unknown';
      try {
        role = model.roleOf(transcript);
        turn =
          requests.length >= options.maxTurns
            ? { kind: 'text', text: `Stopping: the turn cap of ${String(options.maxTurns)} model turns was reached.` }
            : model.decide(transcript);
        if (requests.length >= options.maxTurns) failures.push(`turn cap ${String(options.maxTurns)} reached`);
      } catch (error) {
        failures.push(`scripted model failed on request ${String(requests.length + 1)}: ${String(error)}`);
        turn = { kind: 'text', text: `Stopping: ${String(error)}` };
      }
      requests.push({ api, headers: req.headers, bytes: Buffer.byteLength(text), body, transcript, turn, role });
      if (api === 'anthropic-messages') writeAnthropicTurn(res, String(body['model']), turn);
      else writeResponsesTurn(res, turn);
    })().catch((error: unknown) => {
      failures.push(`endpoint error: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    failures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
