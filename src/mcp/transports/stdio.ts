/**
 * stdio transport: one connection for the life of the process, served by the v2 SDK's `serveStdio` entry, which reads
 * the era from the opening message (a 2025-era `initialize`, or a 2026-07-28 request carrying the `_meta` envelope)
 * and pins one server from our factory to the connection. stdout carries only protocol messages; anything the host
 * process wants to say goes to stderr.
 *
 * Messages are decoded like the HTTP transport decodes a body (the SDK's own stdio transport uses `JSON.parse`, which
 * keeps the last of duplicate keys, accepts lone surrogates and buffers a line of any length up to 10 MiB): each line
 * must be one strict JSON value within the size cap, with no `__proto__` key and no number JSON cannot carry. A
 * refused line is answered with a JSON-RPC error (for its request id when one can be read) and the server keeps going.
 *
 * Work the server put off to answer sooner (`idleWork`) runs after the first answer, in the pauses of the conversation.
 */
import type { Readable, Writable } from 'node:stream';
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { asciiJson, isJsonObject, parseStrictJsonBytes } from '../../core/index.js';
import { jsonRpcErrorBody } from '../../http/index.js';
import { inspectMessages } from './jsonrpc-checks.js';
import { WORKFLOW_ENGINE_MAX_REQUEST_BYTES } from '../server/profile.js';
import { RpcCode } from '../server/wire.js';

export interface StdioOptions {
  /** Default: process.stdin. */
  readonly stdin?: Readable;
  /** Default: process.stdout. */
  readonly stdout?: Writable;
  /** Longest accepted line in bytes; default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Told about out-of-band SDK errors (never written to stdout). */
  readonly onError?: (error: Error) => void;
  /**
   * Work for the connection's idle time (e.g. compiling validators that start-up deferred), started once the first
   * answer is written, so it never delays that answer: `idle()` resolves true after {@link IDLE_MS} in which nothing
   * was received or sent, and false once the connection has closed; the work awaits it before each slice.
   */
  readonly idleWork?: (idle: () => Promise<boolean>) => unknown;
}

/**
 * How long a connection must be quiet before idle work runs a slice. A host sends its list requests within
 * milliseconds of the first answer; a gap this long means it is waiting on its model or user.
 */
export const IDLE_MS = 100;

const NEWLINE = 0x0a;

/** The id of a request we refuse, read leniently so the client can match the error to its call; else null. */
function requestIdOf(text: string): string | number | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const id = isJsonObject(value) ? value['id'] : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** True for a notification (a method and no id): JSON-RPC forbids answering it, even with an error. */
function isNotification(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) && typeof value['method'] === 'string' && !Object.hasOwn(value, 'id');
  } catch {
    return false;
  }
}

function jsonRpcMessageOf(value: unknown): JSONRPCMessage | undefined {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/** Newline-delimited JSON-RPC over two streams, with strict decoding and a per-line size cap. */
export class StrictStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private started = false;
  private markClosed: () => void = () => undefined;
  /** Settles once the transport has closed. */
  readonly closed = new Promise<void>((resolve) => {
    this.markClosed = resolve;
  });
  /** Senders waiting for stdout to drain; one 'drain' listener serves them all (not one listener per message). */
  private drainWaiters: (() => void)[] = [];
  /** When a line last came in or went out (performance.now()); see {@link idle}. */
  private lastActivity = 0;
  private isClosed = false;
  private markWritten: () => void = () => undefined;
  /** Settles once the first line has been written to stdout. */
  readonly firstWrite = new Promise<void>((resolve) => {
    this.markWritten = resolve;
  });

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxBytes: number,
  ) {}

  /** Writes one line and notes the activity. */
  private write(line: string): boolean {
    const flushed = this.stdout.write(line);
    this.lastActivity = performance.now();
    this.markWritten();
    return flushed;
  }

  /**
   * Resolves true once nothing was received or sent for `quietMs`, false once the transport has closed. Its timers are
   * unref'd: waiting for quiet never keeps the process alive.
   */
  async idle(quietMs: number): Promise<boolean> {
    for (;;) {
      if (this.isClosed) return false;
      const wait = this.lastActivity + quietMs - performance.now();
      if (wait <= 0) return true;
      await new Promise<void>((resolve) => setTimeout(resolve, Math.ceil(wait)).unref());
    }
  }

  private readonly onData = (chunk: Buffer): void => {
    this.lastActivity = performance.now();
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl);
      if (!this.discarding) {
        if (this.pendingBytes + piece.length > this.maxBytes) {
          this.discarding = true;
          this.pending = [];
          this.pendingBytes = 0;
          this.refuse(null, RpcCode.InvalidRequest, `message exceeds ${this.maxBytes} bytes`);
        } else {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (nl < 0) return;
      if (this.discarding) this.discarding = false;
      else this.takeLine();
      from = nl + 1;
    }
  };

  private readonly onDrain = (): void => {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private takeLine(): void {
    let bytes = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    if (bytes.length === 0) return;
    const parsed = parseStrictJsonBytes(bytes, { maxBytes: this.maxBytes });
    if (!parsed.ok) {
      const text = bytes.toString('utf8');
      if (!isNotification(text)) {
        this.refuse(requestIdOf(text), RpcCode.ParseError, 'parse error: the message is not one strict JSON value');
      }
      return;
    }
    const value = parsed.value;
    const notification = isJsonObject(value) && typeof value['method'] === 'string' && !Object.hasOwn(value, 'id');
    const verdict = inspectMessages(value, { batches: false });
    if (!verdict.ok) {
      if (!notification) this.refuse(verdict.id, verdict.code, verdict.message);
      return;
    }
    const message = jsonRpcMessageOf(value);
    if (message !== undefined) {
      this.onmessage?.(message);
    } else if (!notification) {
      const id = isJsonObject(value) ? value['id'] : undefined;
      const known = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.refuse(known, RpcCode.InvalidRequest, 'not a JSON-RPC 2.0 message');
    }
  }

  private refuse(id: string | number | null, code: number, message: string): void {
    this.write(`${jsonRpcErrorBody(code, message, id)}\n`);
  }

  /** Starts reading stdin. */
  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error('StrictStdioTransport already started'));
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
    return Promise.resolve();
  }

  /** Stops reading stdin (pausing it when nobody else listens) and reports the close. */
  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('error', this.onStreamError);
    this.stdout.off('drain', this.onDrain);
    this.onDrain();
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.isClosed = true;
    this.onclose?.();
    this.markClosed();
    return Promise.resolve();
  }

  /**
   * Writes one message as one line of ASCII-only JSON (core/ascii-json: a host that decodes each read on its own, as
   * Codex does, never sees a character split); when the stream is full, resolves once it drains. Every sender waiting for the
   * same drain shares one listener, so hundreds of answers in flight add no listener per answer.
   */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.write(`${asciiJson(message)}\n`)) {
        resolve();
        return;
      }
      if (this.drainWaiters.push(resolve) === 1) this.stdout.once('drain', this.onDrain);
    });
  }
}

/**
 * Serves one stdio connection with servers from `factory` (called for the connection, and once more for a discarded
 * `server/discover` probe), and resolves when the client closes the connection (stdin ends) or `stop` resolves (a
 * signal); either way the connection is closed and stdin released, so the process can exit.
 */
export async function serveStdio(
  factory: () => Server | Promise<Server>,
  stop?: Promise<void>,
  options: StdioOptions = {},
): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StrictStdioTransport(
    stdin,
    options.stdout ?? process.stdout,
    options.maxMessageBytes ?? WORKFLOW_ENGINE_MAX_REQUEST_BYTES,
  );
  const { idleWork } = options;
  if (idleWork !== undefined) {
    void transport.firstWrite
      .then(() => idleWork(() => transport.idle(IDLE_MS)))
      .catch((error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))));
  }
  const handle = sdkServeStdio(() => factory(), {
    transport,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });
  const ended = (): void => {
    void handle.close();
  };
  stdin.once('end', ended);
  void stop?.then(ended);
  try {
    await transport.closed;
  } finally {
    stdin.off('end', ended);
  }
}
