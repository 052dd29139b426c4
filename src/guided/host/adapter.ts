/**
 * Host adapter selection and start-time blockers. The declared harness must have a pinned adapter in the workflow;
 * the declared adapter must be exactly that pin, present in the release, compatible with the harness and carry a
 * typed contract; the host must have every capability the workflow, the adapter and the validators every route runs need;
 * repository policy must allow every write setup and the steps plan. Blockers accumulate so the harness sees them all.
 */
import type { AdapterContract, AssetEntry, HostCapability, ValidatorCapability } from '../../registry/model/index.js';
import type { HostBinding } from '../checkpoint/state.js';
import { BlockerCode } from '../codes.js';
import type { Blocker } from '../outcomes.js';
import type { ReleaseScope, WorkflowIndex } from '../scope.js';
import type { HostDeclaration } from './declaration.js';
import { bindingOf } from './declaration.js';
import { hostAssetDelivery } from './delivery.js';
import { policyConflicts } from './repository-policy.js';
import { routeValidatorCapabilities } from './route-needs.js';

/** A host adapter asset that carries a typed contract (the only kind a start may select). */
export interface SelectedAdapter {
  readonly asset: AssetEntry;
  readonly contract: AdapterContract;
}

export type HostCheck =
  | { readonly ok: true; readonly adapter: SelectedAdapter; readonly binding: HostBinding }
  | { readonly ok: false; readonly blockers: readonly Blocker[] };

function selectAdapter(scope: ReleaseScope, index: WorkflowIndex, host: HostDeclaration, blockers: Blocker[]) {
  const pinned = index.workflow.host_adapters[host.harness];
  if (pinned === undefined) {
    blockers.push({ code: BlockerCode.UnsupportedHarness });
    return undefined;
  }
  const expected_adapter = { id: pinned.id, version: pinned.version };
  if (host.adapter === undefined) {
    blockers.push({ code: BlockerCode.UnsupportedHostAdapter, expected_adapter });
    return undefined;
  }
  const asset = scope.asset('host-adapter', pinned.id, pinned.version);
  if (asset === undefined) {
    blockers.push({ code: BlockerCode.HostAdapterAssetMissing, expected_adapter });
    return undefined;
  }
  if (!(asset.adapter?.compatible_harnesses ?? []).includes(host.harness)) {
    blockers.push({ code: BlockerCode.UnsupportedHostAdapter, expected_adapter });
    return undefined;
  }
  if (host.adapter.id !== pinned.id || host.adapter.version !== pinned.version) {
    blockers.push({ code: BlockerCode.HostAdapterBindingMismatch, expected_adapter });
    return undefined;
  }
  const contract = asset.adapter?.adapter_contract;
  if (contract === undefined) {
    blockers.push({ code: BlockerCode.HostAdapterContractUnavailable, expected_adapter });
    return undefined;
  }
  return { asset, contract };
}

/**
 * Validator capabilities a start needs: the workflow's own list plus those of every validator on a step every route
 * passes through (optional ones included). A capability only some routes' validators use is asked for at the branch
 * that enters such a route (route-needs.ts), so a host without it can still take another route.
 */
export function requiredValidatorCapabilities(scope: ReleaseScope, index: WorkflowIndex): Set<ValidatorCapability> {
  const needed = new Set<ValidatorCapability>(index.workflow.required_validator_capabilities);
  for (const c of routeValidatorCapabilities(scope, index, index.workflow.start_step)) needed.add(c);
  return needed;
}

/** Every project path the workflow plans to write: declared artifacts plus project-local host assets. */
export function plannedWrites(
  scope: ReleaseScope,
  index: WorkflowIndex,
  binding: HostBinding | undefined,
  contract: AdapterContract | undefined,
): string[] {
  const paths = [...index.artifacts.values()].map((a) => a.declaration.path);
  if (binding !== undefined && contract !== undefined) {
    for (const ref of index.hostAssets) {
      const file = hostAssetDelivery(scope, binding, contract, ref).projectLocal;
      if (file !== undefined) paths.push(file.path);
    }
  }
  return paths;
}

/**
 * Binds a host declaration to the workflow's pinned adapter, or returns every start-time blocker (spec `_host_blockers`).
 */
export function checkHost(scope: ReleaseScope, index: WorkflowIndex, host: HostDeclaration): HostCheck {
  const blockers: Blocker[] = [];
  const adapter = selectAdapter(scope, index, host, blockers);
  const neededHost = new Set<HostCapability>(index.workflow.required_host_capabilities);
  for (const c of adapter?.contract.required_host_capabilities ?? []) neededHost.add(c);
  for (const capability of [...neededHost].sort()) {
    if (!host.host_capabilities.includes(capability))
      blockers.push({ code: BlockerCode.MissingHostCapability, capability });
  }
  for (const capability of [...requiredValidatorCapabilities(scope, index)].sort()) {
    if (!host.validator_capabilities.includes(capability)) {
      blockers.push({ code: BlockerCode.MissingValidatorCapability, capability });
    }
  }
  const binding = adapter === undefined ? undefined : bindingOf(host, adapter.asset);
  if (binding !== undefined && adapter !== undefined) {
    for (const ref of index.hostAssets) {
      const delivery = hostAssetDelivery(scope, binding, adapter.contract, ref);
      if (delivery.modes.length === 0) {
        // The adapter allows only project-local delivery for this kind and the host cannot do it: fail closed.
        blockers.push({ code: BlockerCode.MissingHostCapability, capability: 'project-local-assets' });
        break;
      }
    }
  }
  for (const conflict of policyConflicts(
    host.repository_policy,
    plannedWrites(scope, index, binding, adapter?.contract),
  )) {
    blockers.push({ code: BlockerCode.RepositoryPolicyConflict, ...conflict });
  }
  if (blockers.length > 0 || adapter === undefined || binding === undefined)
    return { ok: false, blockers: dedupe(blockers) };
  return { ok: true, adapter, binding };
}

function dedupe(blockers: readonly Blocker[]): Blocker[] {
  const seen = new Set<string>();
  return blockers.filter((b) => {
    const key = JSON.stringify([b.code, b.capability, b.path, b.field]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
