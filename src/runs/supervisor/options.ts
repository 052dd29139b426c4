/** Supervisor option defaults and checks. */
import { randomUUID } from 'node:crypto';
import { RimthanError } from '../../core/errors.js';
import { DEFAULT_ABANDONED_START_MS } from './abandoned-starts.js';
import type { RemovedVersions } from '../operator/deploy-check.js';
import type { RetentionOptions, RetentionRule, SupervisorOptions } from './types.js';

export const SUPERVISOR_DEFAULTS = {
  leaseMs: 30_000,
  concurrency: 16,
  maxConcurrency: 256,
  minLeaseMs: 50,
  /** Longest period a Node.js timer supports (about 24.8 days); longer ones would fire at once. */
  maxTimerMs: 2_147_483_647,
  pipelineDepth: 16,
  maxPipelineDepth: 256,
} as const;

/** Checks the supervisor options and fills in the defaults. */
export function checkSupervisorOptions(o: SupervisorOptions): {
  leaseMs: number;
  concurrency: number;
  workerId: string;
  stopGraceMs: number;
  pipelineDepth: number;
  unknownDefinition: 'defer' | 'fail';
  abandonedStartMs: number | false;
  removedVersions: RemovedVersions;
  schedulePollMs: number;
} {
  const leaseMs = o.leaseMs ?? SUPERVISOR_DEFAULTS.leaseMs;
  const concurrency = o.concurrency ?? SUPERVISOR_DEFAULTS.concurrency;
  const workerId = o.workerId ?? randomUUID();
  if (
    !Number.isSafeInteger(leaseMs) ||
    leaseMs < SUPERVISOR_DEFAULTS.minLeaseMs ||
    leaseMs > SUPERVISOR_DEFAULTS.maxTimerMs
  ) {
    throw new RimthanError(
      'invalid_arguments',
      `leaseMs must be an integer ${SUPERVISOR_DEFAULTS.minLeaseMs}..${SUPERVISOR_DEFAULTS.maxTimerMs}`,
    );
  }
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > SUPERVISOR_DEFAULTS.maxConcurrency) {
    throw new RimthanError(
      'invalid_arguments',
      `concurrency must be an integer 1..${SUPERVISOR_DEFAULTS.maxConcurrency}`,
    );
  }
  if (typeof workerId !== 'string' || workerId.length === 0 || Buffer.byteLength(workerId) > 256) {
    throw new RimthanError('invalid_arguments', 'workerId must be 1..256 bytes');
  }
  const stopGraceMs = o.stopGraceMs ?? Math.min(Math.floor(leaseMs / 2), 10_000);
  if (!Number.isSafeInteger(stopGraceMs) || stopGraceMs < 0) {
    throw new RimthanError('invalid_arguments', 'stopGraceMs must be an integer >= 0');
  }
  const pipelineDepth = o.pipelineDepth ?? SUPERVISOR_DEFAULTS.pipelineDepth;
  if (
    !Number.isSafeInteger(pipelineDepth) ||
    pipelineDepth < 1 ||
    pipelineDepth > SUPERVISOR_DEFAULTS.maxPipelineDepth
  ) {
    throw new RimthanError(
      'invalid_arguments',
      `pipelineDepth must be an integer 1..${SUPERVISOR_DEFAULTS.maxPipelineDepth}`,
    );
  }
  const unknownDefinition = o.unknownDefinition ?? 'defer';
  if (unknownDefinition !== 'defer' && unknownDefinition !== 'fail') {
    throw new RimthanError('invalid_arguments', 'unknownDefinition must be "defer" or "fail"');
  }
  const abandonedStartMs = o.abandonedStartMs ?? DEFAULT_ABANDONED_START_MS;
  if (
    abandonedStartMs !== false &&
    (!Number.isSafeInteger(abandonedStartMs) ||
      abandonedStartMs < 1 ||
      abandonedStartMs > SUPERVISOR_DEFAULTS.maxTimerMs)
  ) {
    throw new RimthanError(
      'invalid_arguments',
      `abandonedStartMs must be an integer 1..${SUPERVISOR_DEFAULTS.maxTimerMs} or false`,
    );
  }
  const removedVersions = o.removedVersions ?? 'refuse';
  if (removedVersions !== 'refuse' && removedVersions !== 'fail' && removedVersions !== 'ignore') {
    throw new RimthanError('invalid_arguments', 'removedVersions must be "refuse", "fail" or "ignore"');
  }
  const schedulePollMs = o.schedulePollMs ?? 5000;
  if (!Number.isSafeInteger(schedulePollMs) || schedulePollMs < 10 || schedulePollMs > 3_600_000) {
    throw new RimthanError('invalid_arguments', 'schedulePollMs must be an integer 10..3600000');
  }
  return {
    leaseMs,
    concurrency,
    workerId,
    stopGraceMs,
    pipelineDepth,
    unknownDefinition,
    abandonedStartMs,
    removedVersions,
    schedulePollMs,
  };
}

/** Retention limits: the longest age a rule may name (about 317 years), the most flows with a rule of their own. */
export const RETENTION_LIMITS = {
  maxAgeMs: 10_000_000_000_000,
  maxKeepLast: 1_000_000_000,
  maxFlows: 1000,
  defaultIntervalMs: 60_000,
  minIntervalMs: 10,
} as const;

/** Retention options checked, flows by name. */
export interface CheckedRetention {
  readonly default: RetentionRule | undefined;
  readonly flows: ReadonlyMap<string, RetentionRule>;
  readonly intervalMs: number;
}

function checkRetentionRule(rule: unknown, where: string, allowEmpty: boolean): RetentionRule {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    throw new RimthanError('invalid_arguments', `${where} must be an object { maxAgeMs?, keepLast? }`);
  }
  const { maxAgeMs, keepLast, ...rest } = rule as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) {
    throw new RimthanError('invalid_arguments', `${where} has an unknown field (only maxAgeMs and keepLast)`);
  }
  if (
    maxAgeMs !== undefined &&
    (typeof maxAgeMs !== 'number' ||
      !Number.isSafeInteger(maxAgeMs) ||
      maxAgeMs < 1 ||
      maxAgeMs > RETENTION_LIMITS.maxAgeMs)
  ) {
    throw new RimthanError('invalid_arguments', `${where}.maxAgeMs must be an integer 1..${RETENTION_LIMITS.maxAgeMs}`);
  }
  if (
    keepLast !== undefined &&
    (typeof keepLast !== 'number' ||
      !Number.isSafeInteger(keepLast) ||
      keepLast < 0 ||
      keepLast > RETENTION_LIMITS.maxKeepLast)
  ) {
    throw new RimthanError(
      'invalid_arguments',
      `${where}.keepLast must be an integer 0..${RETENTION_LIMITS.maxKeepLast}`,
    );
  }
  if (!allowEmpty && maxAgeMs === undefined && keepLast === undefined) {
    throw new RimthanError('invalid_arguments', `${where} needs maxAgeMs or keepLast (or both)`);
  }
  return {
    ...(maxAgeMs === undefined ? {} : { maxAgeMs }),
    ...(keepLast === undefined ? {} : { keepLast }),
  };
}

/** Checks SupervisorOptions.retention (undefined: no retention). */
export function checkRetentionOptions(o: RetentionOptions | undefined): CheckedRetention | undefined {
  if (o === undefined) return undefined;
  if (typeof o !== 'object' || o === null) {
    throw new RimthanError('invalid_arguments', 'retention must be an object { default?, flows?, intervalMs? }');
  }
  const rule = o.default === undefined ? undefined : checkRetentionRule(o.default, 'retention.default', false);
  const flows = new Map<string, RetentionRule>();
  if (o.flows !== undefined) {
    if (typeof o.flows !== 'object' || o.flows === null || Array.isArray(o.flows)) {
      throw new RimthanError('invalid_arguments', 'retention.flows must be an object of flow name to rule');
    }
    const entries = Object.entries(o.flows);
    if (entries.length > RETENTION_LIMITS.maxFlows) {
      throw new RimthanError('invalid_arguments', `retention.flows names more than ${RETENTION_LIMITS.maxFlows} flows`);
    }
    for (const [name, flowRule] of entries) {
      if (name.length === 0 || Buffer.byteLength(name) > 256) {
        throw new RimthanError('invalid_arguments', 'retention.flows names must be 1..256 bytes');
      }
      flows.set(name, checkRetentionRule(flowRule, `retention.flows[${JSON.stringify(name)}]`, true));
    }
  }
  if (rule === undefined && flows.size === 0) {
    throw new RimthanError('invalid_arguments', 'retention needs a default rule or at least one flow rule');
  }
  const intervalMs = o.intervalMs ?? RETENTION_LIMITS.defaultIntervalMs;
  if (
    !Number.isSafeInteger(intervalMs) ||
    intervalMs < RETENTION_LIMITS.minIntervalMs ||
    intervalMs > SUPERVISOR_DEFAULTS.maxTimerMs
  ) {
    throw new RimthanError(
      'invalid_arguments',
      `retention.intervalMs must be an integer ${RETENTION_LIMITS.minIntervalMs}..${SUPERVISOR_DEFAULTS.maxTimerMs}`,
    );
  }
  return { default: rule, flows, intervalMs };
}
