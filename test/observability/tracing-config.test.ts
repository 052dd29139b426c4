/**
 * tracingConfig: when the standard `OTEL_*` variables turn tracing on, and what they are refused for. Off is the
 * default; an endpoint or `OTEL_TRACES_EXPORTER=otlp` turns it on; `none` and `OTEL_SDK_DISABLED` turn it off; the
 * protocol, sampler and batch settings are read or refused naming the variable, never quoting its value.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { tracingConfig, TracingConfigError } from '../../src/observability/tracing-config.js';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('tracingConfig', () => {
  test('off when unset, blank, none or disabled', () => {
    assert.equal(tracingConfig({}), undefined);
    assert.equal(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }), undefined);
    assert.equal(tracingConfig({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' }), undefined);
    assert.equal(tracingConfig({ ...ENDPOINT, OTEL_SDK_DISABLED: 'TRUE' }), undefined);
    assert.equal(
      tracingConfig({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'bogus' }),
      undefined,
      'nothing read when off',
    );
  });

  test('on with an endpoint (either variable) or OTEL_TRACES_EXPORTER=otlp; protobuf by default', () => {
    for (const env of [
      ENDPOINT,
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces' },
      { OTEL_TRACES_EXPORTER: 'otlp' },
    ]) {
      assert.deepEqual(tracingConfig(env), {
        protocol: 'http/protobuf',
        sampler: 'parentbased_always_on',
        ratio: 1,
        batch: {},
        serviceName: 'rimthan',
      });
    }
  });

  test('the protocol, sampler, ratio, batch settings and service name are read', () => {
    const config = tracingConfig({
      ...ENDPOINT,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_MAX_QUEUE_SIZE: '4096',
      OTEL_SERVICE_NAME: 'rimthan-eu',
    });
    assert.deepEqual(config, {
      protocol: 'http/json',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      batch: { scheduledDelayMillis: 200, maxQueueSize: 4096 },
      serviceName: 'rimthan-eu',
    });
  });

  test('what this process cannot honour is refused naming the variable, never quoting the value', () => {
    const refused = (env: Record<string, string>, variable: string): void => {
      assert.throws(
        () => tracingConfig({ ...ENDPOINT, ...env }),
        (error: unknown) =>
          error instanceof TracingConfigError &&
          error.message.startsWith(`${variable} must be `) &&
          Object.values(env).every((v) => !error.message.includes(v)),
      );
    };
    refused({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL');
    refused({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL');
    refused({ OTEL_TRACES_EXPORTER: 'console' }, 'OTEL_TRACES_EXPORTER');
    refused({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 'OTEL_TRACES_SAMPLER');
    refused({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, 'OTEL_TRACES_SAMPLER_ARG');
    refused({ OTEL_BSP_SCHEDULE_DELAY: '-1' }, 'OTEL_BSP_SCHEDULE_DELAY');
  });

  test('property: any sampler argument is either a ratio in [0, 1] or refused', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double().map(String)), (arg) => {
        try {
          const config = tracingConfig({
            ...ENDPOINT,
            OTEL_TRACES_SAMPLER: 'traceidratio',
            OTEL_TRACES_SAMPLER_ARG: arg,
          });
          return config !== undefined && config.ratio >= 0 && config.ratio <= 1 && Number.isFinite(config.ratio);
        } catch (error) {
          return (
            error instanceof TracingConfigError &&
            error.message === 'OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1'
          );
        }
      }),
    );
  });
});
