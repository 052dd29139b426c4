/**
 * Starts the OpenTelemetry trace SDK for one process from a TracingConfig (tracing-config.ts): a tracer provider with
 * the configured sampler, a batch span processor and the OTLP/HTTP exporter of the configured encoding (protobuf or
 * JSON; the exporter reads its endpoint, headers, timeout and compression from the `OTEL_EXPORTER_OTLP_*` variables),
 * under a resource named `rimthan` unless `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES` say otherwise.
 *
 * Loaded only when tracing is on (the CLI imports this file dynamically), so a process without the variables never
 * loads the SDK. The provider is not registered globally: nothing but this process's own hooks makes spans with it.
 */
import { diag } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Sampler } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from './tracing-config.js';

/** A started SDK: the tracer its hooks use, and how to send what is buffered and stop. */
export interface TracingSdk {
  readonly tracer: Tracer;
  /** Exports every ended span still buffered, then stops the exporter (bounded by the export timeout). */
  shutdown(): Promise<void>;
}

function samplerOf(config: TracingConfig): Sampler {
  const ratio = (): Sampler => new TraceIdRatioBasedSampler(config.ratio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** Starts the SDK; `version` is the package version (`service.version`). */
export function startTracingSdk(config: TracingConfig, version: string): TracingSdk {
  // The SDK's own diagnostics stay silent: an export failure must never write to stdio's protocol stream.
  diag.disable();
  const exporter = config.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(config),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...config.batch })],
  });
  return {
    tracer: provider.getTracer('rimthan', version),
    shutdown: () => provider.shutdown(),
  };
}
