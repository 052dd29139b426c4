/**
 * The Rimthan workflow-engine server as the participant reaches it: the official MCP SDK client over stdio (the
 * participant launches the server command) or Streamable HTTP (a URL and a bearer token). It checks the server is a
 * Rimthan workflow-engine endpoint (server name, exactly the four guided tools), turns tool errors into typed
 * outcomes and reads release resources, and skill entries (skills/get) when it declared the Skills extension.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { isJsonObject } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { GuidedToolName } from '../guided/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
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

function valueOf(result: { structuredContent?: unknown; content?: unknown }): { value: JsonObject; bytes: number } {
  const content = (Array.isArray(result.content) ? result.content : []) as { type?: string; text?: string }[];
  const text = content.find((c) => c.type === 'text')?.text;
  const bytes = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  if (isJsonObject(result.structuredContent)) return { value: result.structuredContent, bytes };
  if (text !== undefined) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (isJsonObject(parsed)) return { value: parsed, bytes };
    } catch {
      // fall through: not JSON
    }
  }
  throw new ParticipantError(ParticipantErrorCode.ServerMismatch, 'the server answered a tool call without JSON');
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
      fetch: retryingFetch,
    }),
    stderrTail: () => '',
  };
}

/** Where the target points, for messages (never the token). */
export function describeTarget(target: ServerTarget): string {
  return target.kind === 'stdio' ? `the server command ${target.command}` : `the server at ${target.url}`;
}

/**
 * Connects and checks identity: an MCP server named `rimthan` listing exactly the four guided tools. Anything else is
 * refused (`server_mismatch`), a connection failure is `server_refused` with its reason.
 */
export async function connectServer(target: ServerTarget): Promise<GuidedServer> {
  const client = new Client({ name: 'rimthan-participant', version: '1.0.0' });
  const where = describeTarget(target);
  const { transport, stderrTail } = transportFor(target);
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
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
  if (version?.name !== 'rimthan') await fail(`it calls itself ${JSON.stringify(version?.name ?? '')}`);
  const { tools } = await client.listTools();
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
            const result = await client.request({ method: 'skills/get', params: { uri } }, ResultSchema);
            const skill = (result as { skill?: unknown }).skill;
            return isJsonObject(skill) ? skill : undefined;
          } catch (error) {
            if ((error as { code?: unknown }).code === INVALID_PARAMS) return undefined; // not a skill it serves
            throw error;
          }
        };
  return {
    ...(getSkill === undefined ? {} : { getSkill }),
    info: { name: version?.name ?? '', version: version?.version ?? '' },
    received,
    async call(tool, args) {
      const result = await client.callTool({ name: tool, arguments: args });
      const { value, bytes } = valueOf(result as { structuredContent?: unknown; content?: unknown });
      received.bytes += bytes;
      received.calls += 1;
      if (result.isError !== true) return { ok: true, value };
      const error = value['error'];
      if (!isJsonObject(error)) return { ok: false, error: { code: 'unknown', message: 'tool error' } };
      const e = error;
      return {
        ok: false,
        error: {
          code: typeof e['code'] === 'string' ? e['code'] : 'unknown',
          message: typeof e['message'] === 'string' ? e['message'] : '',
          ...(typeof e['reason'] === 'string' ? { reason: e['reason'] } : {}),
        },
      };
    },
    async readResource(uri) {
      try {
        const result = await client.readResource({ uri });
        const first = result.contents[0] as { text?: unknown } | undefined;
        return typeof first?.text === 'string' ? first.text : undefined;
      } catch (error) {
        if ((error as { code?: unknown }).code === RESOURCE_NOT_FOUND) return undefined;
        throw error;
      }
    },
    async listResources() {
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listResources(cursor === undefined ? {} : { cursor });
        uris.push(...page.resources.map((r) => r.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return uris;
    },
    close: () => client.close(),
  };
}
