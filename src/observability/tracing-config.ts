/**
 * Whether `rimthan serve` traces, read from the standard OpenTelemetry variables and nothing else. This module imports
 * no OpenTelemetry code: a process with tracing off checks these variables and never loads the SDK.
 *
 * Tracing is on when `OTEL_TRACES_EXPORTER` names `otlp`, or when an OTLP endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); `OTEL_TRACES_EXPORTER=none` and
 * `OTEL_SDK_DISABLED=true` turn it off. Spans go over OTLP/HTTP, protobuf (the OpenTelemetry default) or JSON
 * (`OTEL_EXPORTER_OTLP_PROTOCOL` / `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`). The endpoint, headers, timeout and
 * compression variables are the exporter's own; the sampler (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`) and the
 * batch processor (`OTEL_BSP_*`) are read here, since the trace SDK no longer reads them itself.
 *
 * A value this process cannot honour (gRPC, a console exporter that would write into stdio's protocol stream, an
 * unknown sampler) is refused with a TracingConfigError naming the variable, never silently ignored.
 */

/** The OTLP/HTTP encodings. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type SamplerName =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

/** The batch span processor's settings (`OTEL_BSP_*`); absent ones keep the SDK's defaults. */
export interface BatchSettings {
  readonly scheduledDelayMillis?: number;
  readonly exportTimeoutMillis?: number;
  readonly maxQueueSize?: number;
  readonly maxExportBatchSize?: number;
}

export interface TracingConfig {
  readonly protocol: OtlpProtocol;
  readonly sampler: SamplerName;
  /** The ratio of the `traceidratio` samplers (0..1; default 1). */
  readonly ratio: number;
  readonly batch: BatchSettings;
  /** `OTEL_SERVICE_NAME`, else `rimthan` (`OTEL_RESOURCE_ATTRIBUTES` may add more; the resource detector reads it). */
  readonly serviceName: string;
}

/** A tracing variable set to something this process cannot honour; the message names the variable, not its value. */
export class TracingConfigError extends Error {
  override readonly name = 'TracingConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

const SAMPLERS: readonly SamplerName[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

const BSP: readonly [keyof BatchSettings, string, number, number][] = [
  ['scheduledDelayMillis', 'OTEL_BSP_SCHEDULE_DELAY', 0, 3_600_000],
  ['exportTimeoutMillis', 'OTEL_BSP_EXPORT_TIMEOUT', 1, 3_600_000],
  ['maxQueueSize', 'OTEL_BSP_MAX_QUEUE_SIZE', 1, 1_000_000],
  ['maxExportBatchSize', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 1, 1_000_000],
];

/** A variable's trimmed value; blank counts as unset, as the OpenTelemetry specification says. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function exporters(env: Env): readonly string[] | undefined {
  const raw = read(env, 'OTEL_TRACES_EXPORTER');
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((name) => name.trim().toLowerCase());
  if (names.some((name) => name !== 'otlp' && name !== 'none')) {
    throw new TracingConfigError('OTEL_TRACES_EXPORTER must be otlp or none (traces leave over OTLP/HTTP only)');
  }
  return names;
}

function protocolOf(env: Env): OtlpProtocol {
  const raw = read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? read(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (raw === undefined || raw === 'http/protobuf') return 'http/protobuf';
  if (raw === 'http/json') return 'http/json';
  const name =
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined
      ? 'OTEL_EXPORTER_OTLP_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  throw new TracingConfigError(`${name} must be http/protobuf or http/json`);
}

function samplerOf(env: Env): { sampler: SamplerName; ratio: number } {
  const raw = read(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  const sampler = SAMPLERS.find((name) => name === raw);
  if (sampler === undefined) {
    throw new TracingConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}`);
  }
  const arg = read(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (!sampler.endsWith('traceidratio') || arg === undefined) return { sampler, ratio: 1 };
  const ratio = /^(0|1|0?\.\d{1,17}|1\.0*)$/.test(arg) ? Number(arg) : Number.NaN;
  if (!(ratio >= 0 && ratio <= 1)) throw new TracingConfigError('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  return { sampler, ratio };
}

function batchOf(env: Env): BatchSettings {
  const batch: Record<string, number> = {};
  for (const [key, name, min, max] of BSP) {
    const raw = read(env, name);
    if (raw === undefined) continue;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      throw new TracingConfigError(`${name} must be an integer from ${min} to ${max}`);
    }
    batch[key] = Number(raw);
  }
  return batch;
}

/** The tracing configuration of `env`, or undefined when tracing is off; throws TracingConfigError. */
export function tracingConfig(env: Env): TracingConfig | undefined {
  if (read(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const named = exporters(env);
  const endpoint =
    read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined ||
    read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined;
  const on = named === undefined ? endpoint : named.includes('otlp');
  if (!on) return undefined;
  return {
    protocol: protocolOf(env),
    ...samplerOf(env),
    batch: batchOf(env),
    serviceName: read(env, 'OTEL_SERVICE_NAME') ?? 'rimthan',
  };
}
