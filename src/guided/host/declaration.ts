/** The host declaration and repository policy as the engine reads them (already schema-validated). */
import type { Harness, HostCapability, ValidatorCapability } from '../../registry/model/index.js';
import type { HostBinding } from '../checkpoint/state.js';

export interface RepositoryPolicy {
  readonly conflict: boolean;
  readonly protected_paths?: readonly string[];
}

export interface HostDeclaration {
  readonly harness: Harness;
  readonly adapter?: { readonly id: string; readonly version: string };
  readonly host_capabilities: readonly HostCapability[];
  readonly validator_capabilities: readonly ValidatorCapability[];
  readonly repository_policy: RepositoryPolicy;
}

/** Sorted, de-duplicated copy (capability sets are compared and signed in this form). */
export function sortedSet<T extends string>(values: readonly T[]): T[] {
  return [...new Set(values)].sort();
}

/** The checkpoint host binding for a declaration whose adapter has been selected. */
export function bindingOf(host: HostDeclaration, adapter: { id: string; version: string }): HostBinding {
  return {
    harness: host.harness,
    adapter_id: adapter.id,
    adapter_version: adapter.version,
    host_capabilities: sortedSet(host.host_capabilities),
    validator_capabilities: sortedSet(host.validator_capabilities),
  };
}

/** True when two capability lists hold the same set. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = sortedSet(a);
  const sb = sortedSet(b);
  return sa.length === sb.length && sa.every((v, i) => v === sb[i]);
}
