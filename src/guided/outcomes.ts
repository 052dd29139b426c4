/**
 * The closed result objects start/continue (blockers) and prepare (deterministic failures) return. Every field is
 * release-defined or a digest-level fact; nothing here ever carries participant data.
 */
import type { HostCapability, ValidatorCapability } from '../registry/model/index.js';
import type { BlockerCode, FailureCode, FailureReason } from './codes.js';

export interface Blocker {
  readonly code: BlockerCode;
  readonly capability?: HostCapability | ValidatorCapability;
  readonly expected_adapter?: { readonly id: string; readonly version: string };
  readonly field?: string;
  readonly path?: string;
}

export interface Failure {
  readonly code: FailureCode;
  readonly reason?: FailureReason;
  readonly artifact_id?: string;
  readonly validator_id?: string;
  readonly capability?: HostCapability | ValidatorCapability;
  readonly asset?: { readonly kind: string; readonly id: string; readonly version: string };
  readonly path?: string;
  readonly keyword?: string;
  readonly schema_path?: string;
  readonly limit?: number;
}
