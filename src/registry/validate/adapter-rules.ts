/**
 * Host-adapter contracts: from version 1.1.0 an adapter needs a typed contract; its project-local path templates hold
 * exactly one `{asset_id}`, no other placeholder, expand to safe project paths and do not collide across kinds.
 */
import { AssetKind, DeliveryMode } from '../model/release.js';
import type { AssetEntry, HostAssetKind } from '../model/release.js';
import { compareVersions } from '../model/naming.js';
import { pathTemplateProblem } from '../paths.js';
import { ProblemCode, entryKey, quoted } from '../problems.js';
import { HOST_ASSET_KINDS } from '../shape/common.js';
import type { Checker } from './context.js';

/** First adapter version that must carry a typed adapter_contract. */
export const TYPED_CONTRACT_SINCE = '1.1.0';

/** True when an adapter of this version must have a typed contract (guided refuses legacy ones at start). */
export function requiresTypedContract(version: string): boolean {
  return compareVersions(version, TYPED_CONTRACT_SINCE) >= 0;
}

/** Checks every host-adapter asset's harness list and typed contract. */
export function checkAdapters(c: Checker): void {
  for (const asset of c.content.assets) {
    if (asset.kind === AssetKind.HostAdapter) checkAdapter(c, asset);
  }
}

function checkAdapter(c: Checker, asset: AssetEntry): void {
  const key = entryKey('asset', asset.id, asset.version, asset.kind);
  const spec = asset.adapter;
  if (spec === undefined) return;
  if (spec.compatible_harnesses.length === 0) {
    c.report(
      key,
      ['adapter', 'compatible_harnesses'],
      ProblemCode.InvalidValue,
      'compatible_harnesses must name at least one harness',
    );
  }
  const dupHarness = spec.compatible_harnesses.find((h, i) => spec.compatible_harnesses.indexOf(h) !== i);
  if (dupHarness !== undefined)
    c.report(
      key,
      ['adapter', 'compatible_harnesses'],
      ProblemCode.InvalidValue,
      `harness ${quoted(dupHarness)} is listed twice`,
    );
  const contract = spec.adapter_contract;
  if (contract === undefined) {
    if (requiresTypedContract(asset.version)) {
      c.report(
        key,
        ['adapter'],
        ProblemCode.AdapterContractRequired,
        `host adapters from version ${TYPED_CONTRACT_SINCE} on need an adapter_contract`,
      );
    }
    return;
  }
  const base = ['adapter', 'adapter_contract'];
  const templates = new Map<string, HostAssetKind>();
  for (const kind of HOST_ASSET_KINDS) {
    const modes = contract.delivery[kind];
    const dupMode = modes.find((m, i) => modes.indexOf(m) !== i);
    if (dupMode !== undefined)
      c.report(
        key,
        [...base, 'delivery', kind],
        ProblemCode.InvalidValue,
        `delivery mode ${quoted(dupMode)} is listed twice`,
      );
    const template = contract.project_local_paths[kind];
    if (template === undefined) {
      if (modes.includes(DeliveryMode.ProjectLocal)) {
        c.report(
          key,
          [...base, 'delivery', kind],
          ProblemCode.AdapterPathMissing,
          `project-local delivery of ${kind} assets needs a project_local_paths template`,
        );
      }
      continue;
    }
    const path = [...base, 'project_local_paths', kind];
    const problem = pathTemplateProblem(template);
    if (problem !== undefined) c.report(key, path, ProblemCode.AdapterPathInvalid, `${kind} template ${problem}`);
    const other = templates.get(template);
    if (other !== undefined)
      c.report(key, path, ProblemCode.AdapterPathInvalid, `${kind} template is the same as the ${other} template`);
    templates.set(template, kind);
  }
  const dupCap = contract.required_host_capabilities.find(
    (cap, i) => contract.required_host_capabilities.indexOf(cap) !== i,
  );
  if (dupCap !== undefined)
    c.report(
      key,
      [...base, 'required_host_capabilities'],
      ProblemCode.InvalidValue,
      `capability ${quoted(dupCap)} is listed twice`,
    );
}
