/**
 * `Tracing`: the spans of one Rimthan process, made through the OpenTelemetry API from the narrow hooks the serving
 * rooms offer (they never import OpenTelemetry): a span per MCP request (the GenAI MCP semantic conventions), a span
 * per Admin API request (the HTTP server conventions), and for durable runs a span per execution of a run
 * (`invoke_workflow`) with a child span per vertex.
 *
 * Attributes carry closed words only, as the metrics do: method names, tool and prompt names the profile serves, flow
 * names and vertex ids (the operator's code), route templates, statuses, JSON-RPC error codes and bounded request ids.
 * Never a principal, a session or run id, a token, an argument, a result, a path or a query; anything that does not
 * fit its word pattern is left out rather than recorded. The W3C trace context a caller sends (`params._meta` on MCP,
 * the `traceparent` header on the Admin API) becomes the span's remote parent when it is well formed.
 */
import {
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';

/** What an MCP request's span is made from (mcp/server's McpRequestFacts). */
export interface McpSpanFacts {
  readonly method: string;
  readonly tool?: string | undefined;
  readonly prompt?: string | undefined;
  readonly requestId?: string | undefined;
  readonly protocolVersion?: string | undefined;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

/** How an MCP request ended: a tool error (`tool_error`), a JSON-RPC error code, or neither. */
export interface McpSpanEnd {
  readonly errorType?: string | undefined;
  readonly rpcCode?: number | undefined;
}

/** What an Admin API request's span starts from. */
export interface HttpSpanFacts {
  readonly method: string;
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
}

export interface HttpSpan {
  /** The matched route's template (`/admin/releases/:release`). */
  route(template: string): void;
  end(status: number): void;
}

/** One execution of a durable run. */
export interface RunSpan {
  /** A vertex's span, ended with its outcome (`completed`, `interrupted`, `failed`, `halted`, `parked`). */
  startVertex(vertex: string): (outcome: string) => void;
  /** Ends the run's span with how the execution ended (a run status, `released`, `lost`, `deferred`, `error`). */
  end(outcome: string): void;
}

/** The transport the MCP requests of this process arrive on. */
export type McpTransportName = 'stdio' | 'http';

const METHOD = /^[a-z][a-zA-Z/_]{0,63}$/;
const NAME = /^[a-zA-Z][a-zA-Z0-9_.-]{0,127}$/;
const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;
const ROUTE = /^\/[A-Za-z0-9/:_.-]{0,255}$/;
const OUTCOME = /^[a-z][a-z0-9_]{0,63}$/;
const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** `value` when it is a closed word of `pattern`, else undefined (the attribute is then left out). */
function word(value: string | undefined, pattern: RegExp): string | undefined {
  return value !== undefined && pattern.test(value) ? value : undefined;
}

/** The context whose span is the caller's (a W3C `traceparent`, with `tracestate`), or the root context. */
export function remoteParent(traceparent: string | undefined, tracestate: string | undefined): Context {
  if (traceparent === undefined || traceparent.length > 512) return ROOT_CONTEXT;
  const m = TRACEPARENT.exec(traceparent.trim());
  // Version ff is invalid; version 00 has nothing after the flags; later versions may (and are read as 00).
  if (m === null || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return ROOT_CONTEXT;
  const spanContext = {
    traceId: m[2] ?? '',
    spanId: m[3] ?? '',
    traceFlags: Number.parseInt(m[4] ?? '0', 16) & 1,
    isRemote: true,
    ...(tracestate === undefined || tracestate.length > 512 ? {} : { traceState: createTraceState(tracestate) }),
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : ROOT_CONTEXT;
}

function set(attributes: Attributes, key: string, value: string | number | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

function fail(span: Span, errorType: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** The spans of one process; see the module comment. */
export class Tracing {
  readonly #tracer: Tracer;
  readonly #transport: McpTransportName;

  constructor(tracer: Tracer, transport: McpTransportName) {
    this.#tracer = tracer;
    this.#transport = transport;
  }

  /** A span for one MCP request; call the returned function with how it ended. */
  readonly mcpRequest = (facts: McpSpanFacts): ((end: McpSpanEnd) => void) => {
    const method = word(facts.method, METHOD) ?? 'other';
    const tool = method === 'tools/call' ? word(facts.tool, NAME) : undefined;
    const prompt = method === 'prompts/get' ? word(facts.prompt, NAME) : undefined;
    const attributes: Attributes = {
      'mcp.method.name': method,
      'network.transport': this.#transport === 'stdio' ? 'pipe' : 'tcp',
    };
    if (this.#transport === 'http') attributes['network.protocol.name'] = 'http';
    if (method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
    set(attributes, 'gen_ai.tool.name', tool);
    set(attributes, 'gen_ai.prompt.name', prompt);
    set(attributes, 'jsonrpc.request.id', word(facts.requestId, REQUEST_ID));
    set(attributes, 'mcp.protocol.version', word(facts.protocolVersion, PROTOCOL_VERSION));
    const target = tool ?? prompt;
    const span = this.#tracer.startSpan(
      target === undefined ? method : `${method} ${target}`,
      { kind: SpanKind.SERVER, attributes },
      remoteParent(facts.traceparent, facts.tracestate),
    );
    return (end) => {
      if (end.rpcCode !== undefined && Number.isSafeInteger(end.rpcCode)) {
        span.setAttribute('rpc.response.status_code', String(end.rpcCode));
        fail(span, String(end.rpcCode));
      } else if (end.errorType !== undefined) {
        fail(span, word(end.errorType, OUTCOME) ?? 'other');
      }
      span.end();
    };
  };

  /** A span for one Admin API request, named once its route is known. */
  readonly adminRequest = (facts: HttpSpanFacts): HttpSpan => {
    const method = HTTP_METHODS.has(facts.method) ? facts.method : '_OTHER';
    const span = this.#tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.scheme': 'http' } },
      remoteParent(facts.traceparent, facts.tracestate),
    );
    return {
      route: (template) => {
        const route = word(template, ROUTE);
        if (route === undefined) return;
        span.setAttribute('http.route', route);
        span.updateName(`${method} ${route}`);
      },
      end: (status) => {
        if (Number.isInteger(status) && status >= 100 && status < 600) {
          span.setAttribute('http.response.status_code', status);
          if (status >= 500) fail(span, String(status));
        }
        span.end();
      },
    };
  };

  /** A span for one execution of a run of `flow`, with a child span per vertex it runs. */
  readonly runExecution = (facts: { readonly flow: string; readonly version: string }): RunSpan => {
    const flow = word(facts.flow, NAME) ?? 'other';
    const attributes: Attributes = { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': flow };
    set(attributes, 'rimthan.workflow.version', word(facts.version, NAME));
    const span = this.#tracer.startSpan(`invoke_workflow ${flow}`, { kind: SpanKind.INTERNAL, attributes });
    const parent = trace.setSpan(ROOT_CONTEXT, span);
    return {
      startVertex: (vertex) => {
        const id = word(vertex, NAME) ?? 'other';
        const child = this.#tracer.startSpan(
          `vertex ${id}`,
          { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.workflow.name': flow, 'rimthan.vertex.id': id } },
          parent,
        );
        return (outcome) => {
          const word_ = word(outcome, OUTCOME) ?? 'other';
          child.setAttribute('rimthan.vertex.outcome', word_);
          if (word_ === 'failed') fail(child, 'vertex_failed');
          child.end();
        };
      },
      end: (outcome) => {
        const end = word(outcome, OUTCOME) ?? 'other';
        span.setAttribute('rimthan.run.outcome', end);
        if (end === 'failed') fail(span, 'run_failed');
        else if (end === 'error') fail(span, 'internal_error');
        span.end();
      },
    };
  };
}
