/** Supervisor option defaults and checks. */
import { randomUUID } from 'node:crypto';
import { RimthanError } from '../../core/errors.js';
import { DEFAULT_ABANDONED_START_MS } from './abandoned-starts.js';
import type { RemovedVersions } from '../operator/deploy-check.js';
import type { SupervisorOptions } from './types.js';

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
