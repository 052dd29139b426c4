/**
 * One host session with a scripted model, the part every host shares: the model endpoint for the host's API, the
 * files the person had in HOME, Rimthan reachable through a tap (a stdio tap in front of `rimthan serve`, or an HTTP tap
 * in front of a served URL), the host's own launch, and what the session showed: every model request, the messages
 * that crossed the tap, how the host exited. The host modules (claude-code.ts, codex.ts) only say how their CLI is
 * configured and started.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAIN } from '../../../support/serve-process.js';
import type { HostBinary } from './host-bins.js';
import { startHttpTap } from './http-tap.js';
import type { HttpTap } from './http-tap.js';
import { startModelEndpoint } from './model-endpoint.js';
import type { ModelApi, RecordedRequest, ScriptedModel } from './model-endpoint.js';
import type { HostExit } from './run-host.js';
import type { Scratch } from './scratch.js';
import { readTap, TAP_MAIN } from './tap-log.js';
import type { TapEntry } from './tap-log.js';

export type RimthanRegistration =
  | {
      readonly kind: 'stdio';
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      /** The `rimthan` executable to serve with (default: this build's); the hosts bench passes a baseline build. */
      readonly main?: string;
    }
  | { readonly kind: 'http'; readonly url: string; readonly token: string };

export interface HostRunOptions {
  readonly scratch: Scratch;
  readonly model: ScriptedModel;
  readonly server: RimthanRegistration;
  readonly prompt: string;
  readonly maxTurns: number;
  readonly timeoutMs?: number;
  /**
   * The person approved every Rimthan tool up front (Codex asks before tools that are not read-only, and `codex exec`
   * cannot ask: the runs profile's start and resume need this; Claude Code's allowed tools already cover them).
   */
  readonly approveTools?: boolean;
  /** Files to put in the scratch HOME before the host starts (HOME-relative path → content), e.g. Codex agent roles. */
  readonly homeFiles?: Readonly<Record<string, string>>;
  /**
   * Codex only: Rimthan is not registered as an MCP server (the session reaches it through the shell alone, e.g. with
   * `rimthan participant run`), and these lines are added to config.toml (e.g. the sandbox's network access).
   */
  readonly codex?: { readonly withoutServer?: boolean; readonly configLines?: readonly string[] };
}

export interface HostRun {
  readonly host: string;
  readonly version: string;
  readonly requests: readonly RecordedRequest[];
  readonly failures: readonly string[];
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The JSON-RPC messages between the host and Rimthan (through a stdio or HTTP tap). */
  readonly tap: readonly TapEntry[];
  readonly elapsedMs: number;
}

/** How the host reaches Rimthan in this session. */
export type Reach =
  | { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly kind: 'http'; readonly url: string; readonly token: string };

/** What a host module does for the session: configure the host for `endpoint` and `reach`, then run it. */
export type Launch = (endpoint: string, reach: Reach) => Promise<HostExit>;

export async function hostSession(
  binary: HostBinary,
  api: ModelApi,
  options: HostRunOptions,
  launch: Launch,
): Promise<HostRun> {
  const { scratch, server } = options;
  for (const [path, content] of Object.entries(options.homeFiles ?? {})) {
    mkdirSync(dirname(join(scratch.home, path)), { recursive: true });
    writeFileSync(join(scratch.home, path), content);
  }
  const endpoint = await startModelEndpoint(api, options.model, { maxTurns: options.maxTurns });
  const tapLog = join(scratch.root, 'stdio-tap.jsonl');
  let httpTap: HttpTap | undefined;
  try {
    let reach: Reach;
    if (server.kind === 'http') {
      httpTap = await startHttpTap(server.url);
      reach = { kind: 'http', url: httpTap.url, token: server.token };
    } else {
      const serve = [process.execPath, server.main ?? MAIN, 'serve', ...server.args];
      reach = { kind: 'stdio', command: process.execPath, args: [TAP_MAIN, tapLog, '--', ...serve] };
    }
    const started = performance.now();
    const exit = await launch(endpoint.url, reach);
    return {
      host: binary.host,
      version: binary.version,
      requests: endpoint.requests,
      failures: endpoint.failures,
      exitCode: exit.status,
      stdout: exit.stdout,
      stderr: exit.stderr,
      tap: httpTap === undefined ? readTap(tapLog) : [...httpTap.entries],
      elapsedMs: performance.now() - started,
    };
  } finally {
    await endpoint.close();
    await httpTap?.close();
  }
}
