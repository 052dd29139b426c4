/**
 * The Rimthan workflow-engine server as the participant reaches it: the official MCP SDK client over stdio (the
 * participant launches the server command) or Streamable HTTP (a URL and a bearer token). It checks the server is a
 * Rimthan workflow-engine endpoint (server name, exactly the four guided tools), turns tool errors into typed
 * outcomes and reads release resources, and skill entries (skills/get) when it declared the Skills extension.
 *
 * The server is not trusted: every request has a timeout (`timeoutMs`), an HTTP redirect is refused (never followed
 * with the token), an HTTP answer is read up to a bound, every tool result is checked against its contract
 * (served-shapes.ts), and a failure of the MCP client (a timeout, an answer that is not MCP) is a ParticipantError
 * naming the server, never the client's own error.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode as McpErrorCode, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject, parseStrictJson } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { GuidedToolName } from '../guided/index.js';
import { isParticipantError, ParticipantError, ParticipantErrorCode } from './errors.js';
import {
  checkToolError,
  checkToolResult,
  MAX_RESOURCE_CHARS,
  MAX_SERVED_DEPTH,
  nestsDeeperThan,
} from './served-shapes.js';
import { SKILLS_EXTENSION } from './skill-assets.js';
import type { SkillGetter } from './skill-assets.js';

/** A tool error as the server sent it (`{"error": {code, message, reason?}}`). */
export interface ToolError {
  readonly code: string;
  readonly message: string;
  readonly reason?: string;
}

export type ToolOutcome =
  { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly error: ToolError };

/** What the participant needs of a server: the four tools and the release resources. */
export interface GuidedServer {
  /** Server name and version from the MCP handshake. */
  readonly info: { readonly name: string; readonly version: string };
  call(tool: GuidedToolName, args: JsonObject): Promise<ToolOutcome>;
  /** The text of a resource; undefined when the server has no such resource. */
  readResource(uri: string): Promise<string | undefined>;
  /** The URIs the server lists (its active release's catalogue). */
  listResources(): Promise<string[]>;
  /** skills/get, present only when the server declared the Skills extension (`io.modelcontextprotocol/skills`). */
  readonly getSkill?: SkillGetter;
  /** Bytes of every tool result received (the canonical JSON text), for measurements. */
  readonly received: { bytes: number; calls: number };
  close(): Promise<void>;
}

/** How to reach a server. */
export type ServerTarget =
  | {
      readonly kind: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string | undefined>>;
      readonly cwd?: string;
    }
  | { readonly kind: 'http'; readonly url: string; readonly token?: string };

const RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;
/** The default of `timeoutMs`: how long one request may wait for its answer. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The largest HTTP answer read (a step payload with its inline assets stays far below it). */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** More pages of resources/list than any release has: a server that never ends its list is refused. */
const MAX_RESOURCE_PAGES = 100;

function valueOf(result: { structuredContent?: unknown; content?: unknown }): { value: unknown; bytes: number } {
  const content = (Array.isArray(result.content) ? result.content : []) as { type?: unknown; text?: unknown }[];
  const found = content.find((c) => c.type === 'text')?.text;
  const text = typeof found === 'string' ? found : undefined;
  const bytes = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  if (result.structuredContent !== undefined) return { value: result.structuredContent, bytes };
  if (text !== undefined) {
    const parsed = parseStrictJson(text, { maxBytes: MAX_ANSWER_BYTES, maxDepth: MAX_SERVED_DEPTH });
    if (parsed.ok) return { value: parsed.value, bytes };
  }
  throw new ParticipantError(ParticipantErrorCode.ServerMismatch, 'the server answered a tool call without JSON');
}

/** A response whose body fails once more than `max` bytes arrived (the client reads no further). */
function boundedResponse(response: Response, max: number, where: string): Response {
  const tooLarge = (): ParticipantError =>
    new ParticipantError(ParticipantErrorCode.ServerMismatch, `${where} sent an answer larger than ${max} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > max) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (response.body === null) return response;
  let total = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > max) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * fetch, retried (three times at most, after a short pause) when it failed before any answer came: a network failure
 * such as a kept-alive socket the server closed as idle just as the request went out ("other side closed",
 * ECONNRESET), common when the client's event loop was busy. Safe because the four guided tools change no server
 * state; an HTTP answer of any status is never retried.
 */
async function retryingFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (!(error instanceof TypeError) || attempt > 3 || init?.signal?.aborted === true) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/**
 * The fetch the HTTP transport uses: never follows a redirect (the bearer token would go along to wherever the
 * server points), and reads an answer up to MAX_ANSWER_BYTES.
 */
function guardedFetch(where: string): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await retryingFetch(url, { ...init, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new ParticipantError(
        ParticipantErrorCode.ServerRefused,
        `${where} answered with a redirect (HTTP ${response.status}); redirects are not followed: give the final URL`,
      );
    }
    return boundedResponse(response, MAX_ANSWER_BYTES, where);
  };
}

/** A transport and, for stdio, the tail of the server's stderr (its last words when it fails to start). */
function transportFor(target: ServerTarget): { transport: Transport; stderrTail: () => string } {
  if (target.kind === 'stdio') {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(target.env ?? process.env)) if (v !== undefined) env[k] = v;
    const transport = new StdioClientTransport({
      command: target.command,
      args: [...target.args],
      env,
      stderr: 'pipe',
      maxBufferSize: MAX_ANSWER_BYTES, // one message at most as large as an HTTP answer may be
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-2048);
    });
    const lastLine = (): string => tail.trim().split('\n').pop() ?? '';
    return { transport, stderrTail: lastLine };
  }
  const headers: Record<string, string> = target.token === undefined ? {} : { Authorization: `Bearer ${target.token}` };
  return {
    transport: new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers },
      fetch: guardedFetch(describeTarget(target)),
    }),
    stderrTail: () => '',
  };
}

/** Where the target points, for messages (never the token). */
export function describeTarget(target: ServerTarget): string {
  return target.kind === 'stdio' ? `the server command ${target.command}` : `the server at ${target.url}`;
}

/** Options of a connection. */
export interface ConnectOptions {
  /** How long each request (the handshake included) may wait for its answer; default DEFAULT_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/** True for the MCP client's timeout of a request (the cause of a ParticipantError it became). */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === (McpErrorCode.RequestTimeout as number);
}

/**
 * What became of a failed MCP client request: a refusal of ours as it is, a timeout named with its seconds, an
 * answer the client could not read as MCP (`server_mismatch`), or the server's own error (`server_refused`). Never the
 * client's error itself (an McpError, a ZodError, a TypeError), so no caller reports it as an unexpected failure.
 */
function clientFailure(error: unknown, where: string, timeoutMs: number): ParticipantError {
  if (isParticipantError(error)) return error;
  if (isRequestTimeout(error)) {
    return new ParticipantError(
      ParticipantErrorCode.ServerRefused,
      `${where} did not answer within ${timeoutMs / 1000} seconds`,
      { cause: error },
    );
  }
  const first = error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 200) : '';
  if (error instanceof McpError) {
    return new ParticipantError(ParticipantErrorCode.ServerRefused, `${where} failed a request: ${first}`, {
      cause: error,
    });
  }
  if (error instanceof Error && /^\$?ZodError$/.test(error.name)) {
    return new ParticipantError(ParticipantErrorCode.ServerMismatch, `${where} sent an answer that is not MCP`, {
      cause: error,
    });
  }
  return new ParticipantError(
    ParticipantErrorCode.ServerRefused,
    `${where} broke off the exchange: ${first === '' ? 'unknown error' : first}`,
    { cause: error },
  );
}

/**
 * Connects and checks identity: an MCP server named `rimthan` listing exactly the four guided tools. Anything else is
 * refused (`server_mismatch`), a connection failure is `server_refused` with its reason.
 */
export async function connectServer(target: ServerTarget, options: ConnectOptions = {}): Promise<GuidedServer> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const requestOptions = { timeout: timeoutMs, maxTotalTimeout: timeoutMs };
  const client = new Client({ name: 'rimthan-participant', version: '1.0.0' });
  const where = describeTarget(target);
  const { transport, stderrTail } = transportFor(target);
  const guard = async <T>(request: Promise<T>): Promise<T> => {
    try {
      return await request;
    } catch (error) {
      throw clientFailure(error, where, timeoutMs);
    }
  };
  try {
    await client.connect(transport, requestOptions);
  } catch (error) {
    await client.close().catch(() => undefined);
    if (isParticipantError(error) || isRequestTimeout(error)) throw clientFailure(error, where, timeoutMs);
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    const reason =
      (error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 200) : 'unknown error') +
      (typeof cause === 'string' ? ` (${cause})` : '') +
      (stderrTail() === '' ? '' : `; the server said: ${stderrTail().slice(0, 300)}`);
    throw new ParticipantError(ParticipantErrorCode.ServerRefused, `cannot connect to ${where}: ${reason}`, {
      cause: error,
    });
  }
  const version = client.getServerVersion();
  const fail = async (why: string): Promise<never> => {
    await client.close().catch(() => undefined);
    throw new ParticipantError(
      ParticipantErrorCode.ServerMismatch,
      `${where} is not a Rimthan workflow-engine server (${why})`,
    );
  };
  if (version?.name !== 'rimthan') await fail(`it calls itself ${JSON.stringify(version?.name ?? '').slice(0, 100)}`);
  let tools: { name: string }[];
  try {
    tools = (await guard(client.listTools(undefined, requestOptions))).tools;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const names = tools.map((t) => t.name).sort();
  const expected = Object.values(GuidedToolName).sort();
  if (names.length !== expected.length || names.some((n, i) => n !== expected[i])) {
    await fail('it does not list exactly the four guided tools');
  }
  const received = { bytes: 0, calls: 0 };
  const declared = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
  const getSkill: SkillGetter | undefined =
    declared?.extensions?.[SKILLS_EXTENSION] === undefined
      ? undefined
      : async (uri) => {
          try {
            // Any result object; the entry is checked field by field where it is used (skill-assets.ts).
            const result = await client.request(
              { method: 'skills/get', params: { uri } },
              ResultSchema,
              requestOptions,
            );
            const skill = (result as { skill?: unknown }).skill;
            if (nestsDeeperThan(skill, MAX_SERVED_DEPTH)) {
              throw new ParticipantError(
                ParticipantErrorCode.ServerMismatch,
                `the server sent an answer to skills/get that nests deeper than ${MAX_SERVED_DEPTH} levels`,
              );
            }
            return isJsonObject(skill) ? skill : undefined;
          } catch (error) {
            if ((error as { code?: unknown }).code === INVALID_PARAMS) return undefined; // not a skill it serves
            throw clientFailure(error, where, timeoutMs);
          }
        };
  return {
    ...(getSkill === undefined ? {} : { getSkill }),
    info: { name: version?.name ?? '', version: version?.version ?? '' },
    received,
    async call(tool, args) {
      const result = await guard(client.callTool({ name: tool, arguments: args }, undefined, requestOptions));
      const { value, bytes } = valueOf(result as { structuredContent?: unknown; content?: unknown });
      received.bytes += bytes;
      received.calls += 1;
      if (result.isError !== true) return { ok: true, value: checkToolResult(tool, value) };
      const e = checkToolError(tool, value);
      return {
        ok: false,
        error: { code: e.code, message: e.message, ...(e.reason === undefined ? {} : { reason: e.reason }) },
      };
    },
    async readResource(uri) {
      let result;
      try {
        result = await client.readResource({ uri }, requestOptions);
      } catch (error) {
        if ((error as { code?: unknown }).code === RESOURCE_NOT_FOUND) return undefined;
        throw clientFailure(error, where, timeoutMs);
      }
      const first = result.contents[0] as { text?: unknown } | undefined;
      if (typeof first?.text !== 'string') return undefined;
      if (first.text.length > MAX_RESOURCE_CHARS) {
        throw new ParticipantError(
          ParticipantErrorCode.ServerMismatch,
          `${where} sent a resource longer than ${MAX_RESOURCE_CHARS} characters`,
        );
      }
      return first.text;
    },
    async listResources() {
      const uris: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        if (++pages > MAX_RESOURCE_PAGES) {
          throw new ParticipantError(
            ParticipantErrorCode.ServerMismatch,
            `${where} lists resources over more than ${MAX_RESOURCE_PAGES} pages`,
          );
        }
        const page = await guard(client.listResources(cursor === undefined ? {} : { cursor }, requestOptions));
        uris.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return uris;
    },
    close: () => client.close(),
  };
}
