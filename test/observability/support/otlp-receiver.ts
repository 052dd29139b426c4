/**
 * An OTLP/HTTP trace receiver for tests: a real `node:http` server on loopback that keeps every export's raw bytes
 * and decodes its spans, from OTLP/JSON or from OTLP protobuf (a small reader of the protobuf wire format walking
 * ExportTraceServiceRequest → ResourceSpans → ScopeSpans → Span, enough for names, ids, kinds and attributes).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';

/** A span as the tests read it: ids in lowercase hex, attributes as plain values. */
export interface ReceivedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly statusCode: number;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

export interface ReceivedExport {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

type Field = { readonly no: number; readonly wire: number; readonly value: bigint | Buffer };

/** The fields of one protobuf message (varint, 64-bit, length-delimited and 32-bit wire types). */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[i++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 1) {
      out.push({ no, wire, value: buf.subarray(i, i + 8) });
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, value: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) {
      out.push({ no, wire, value: buf.subarray(i, i + 4) });
      i += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const bytesOf = (f: Field): Buffer => f.value as Buffer;
const all = (buf: Buffer, no: number): Buffer[] =>
  fields(buf)
    .filter((f) => f.no === no && f.wire === 2)
    .map(bytesOf);
const one = (buf: Buffer, no: number): Field | undefined => fields(buf).find((f) => f.no === no);

/** AnyValue: string 1, bool 2, int 3, double 4. */
function anyValue(buf: Buffer): string | number | boolean {
  const f = fields(buf)[0];
  if (f === undefined) return '';
  if (f.no === 1) return bytesOf(f).toString('utf8');
  if (f.no === 2) return f.value === 1n;
  if (f.no === 3) return Number(BigInt.asIntN(64, f.value as bigint));
  if (f.no === 4) return bytesOf(f).readDoubleLE(0);
  return '';
}

/** KeyValue list: key 1, value 2. */
function protoAttributes(list: Buffer[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list) {
    const key = one(kv, 1);
    const value = one(kv, 2);
    if (key !== undefined) out[bytesOf(key).toString('utf8')] = value === undefined ? '' : anyValue(bytesOf(value));
  }
  return out;
}

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of all(body, 1)) {
    const resourceField = one(rs, 1);
    const resource = resourceField === undefined ? {} : protoAttributes(all(bytesOf(resourceField), 1));
    for (const ss of all(rs, 2)) {
      for (const s of all(ss, 2)) {
        const hex = (no: number): string => {
          const f = one(s, no);
          return f === undefined ? '' : bytesOf(f).toString('hex');
        };
        const status = one(s, 15);
        const code = status === undefined ? undefined : one(bytesOf(status), 3);
        const kind = one(s, 6);
        const name = one(s, 5);
        spans.push({
          name: name === undefined ? '' : bytesOf(name).toString('utf8'),
          traceId: hex(1),
          spanId: hex(2),
          parentSpanId: hex(4),
          kind: kind === undefined ? 0 : Number(kind.value),
          attributes: protoAttributes(all(s, 9)),
          statusCode: code === undefined ? 0 : Number(code.value),
          resource,
        });
      }
    }
  }
  return spans;
}

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number };
}

function jsonAttributes(list: readonly JsonKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    out[key] = value.stringValue ?? value.boolValue ?? Number(value.intValue ?? value.doubleValue ?? 0);
  }
  return out;
}

function fromJson(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as {
    resourceSpans: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans: {
        spans: {
          name: string;
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          kind: number;
          attributes?: JsonKeyValue[];
          status?: { code?: number };
        }[];
      }[];
    }[];
  };
  return request.resourceSpans.flatMap((rs) =>
    rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        name: s.name,
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        kind: s.kind,
        attributes: jsonAttributes(s.attributes),
        statusCode: s.status?.code ?? 0,
        resource: jsonAttributes(rs.resource?.attributes),
      })),
    ),
  );
}

/** A running receiver: its endpoint (for OTEL_EXPORTER_OTLP_ENDPOINT), the exports so far and their spans. */
export interface OtlpReceiver {
  readonly endpoint: string;
  readonly exports: ReceivedExport[];
  spans(): ReceivedSpan[];
  /** Every byte every export carried, as one latin1 string (for searching for what must never be there). */
  allBytes(): string;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = req.headers['content-type'] ?? '';
      exports.push({ path: req.url ?? '', contentType, body: Buffer.concat(chunks) });
      const json = contentType.startsWith('application/json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    exports,
    spans: () =>
      exports.flatMap((e) => (e.contentType.startsWith('application/json') ? fromJson(e.body) : fromProtobuf(e.body))),
    allBytes: () => exports.map((e) => e.body.toString('latin1')).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
