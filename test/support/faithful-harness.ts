/**
 * What a faithful participant harness sends to the guided tools, built from the step payload the server returned:
 * artifacts, the output attestation after a verified read-back, the workspace manifest and validator reports. Shared
 * by the engine tests, the MCP tests and the benchmarks so every driver attests the same way.
 */
import { sha256Hex } from '../../src/core/index.js';
import type { JsonObject, JsonValue } from '../../src/core/index.js';

/** The workspace manifest a faithful harness writes for its setup attestation. */
export function workspaceManifest(attestation: JsonObject): string {
  const delivered = (attestation['assets'] as JsonObject[])
    .filter((a) => a['kind'] !== 'host-adapter')
    .map((a) => ({
      kind: a['kind'] as string,
      id: a['asset_id'] as string,
      version: a['version'] as string,
      sha256: a['sha256'] as string,
      delivery: a['delivery'] as string,
      ...(a['path'] === null ? {} : { path: a['path'] as string }),
    }));
  return JSON.stringify(
    { harness: attestation['harness'], adapter: attestation['adapter'], delivered_assets: delivered },
    null,
    2,
  );
}

/** Artifacts for a step payload's outputs from `bodies` (artifact id → content). */
export function artifactsFor(step: JsonObject, bodies: Readonly<Record<string, string>>): JsonObject[] {
  return (step['outputs'] as JsonObject[]).map((o) => ({
    artifact_id: o['artifact_id'] as string,
    media_type: o['media_type'] as string,
    content: bodies[o['artifact_id'] as string] ?? '',
    path: o['path'] as string,
  }));
}

/** The output attestation of a faithful harness that wrote and read back `artifacts`. */
export function outputAttestation(step: JsonObject, artifacts: readonly JsonObject[]): JsonObject {
  const stepId = (step['step'] as JsonObject)['id'] as string;
  return {
    step_id: stepId,
    outputs: (step['outputs'] as JsonObject[]).map((o) => {
      const artifact = artifacts.find((a) => a['artifact_id'] === o['artifact_id']);
      const schema = o['schema'] as JsonObject | null;
      return {
        artifact_id: o['artifact_id'] as string,
        path: o['path'] as string,
        owner_step: stepId,
        media_type: o['media_type'] as string,
        schema_sha256: schema === null ? null : (schema['sha256'] as string),
        max_bytes: o['max_bytes'] as number,
        content_sha256: sha256Hex((artifact?.['content'] as string | undefined) ?? ''),
        symlink_free: true,
        readback_verified: true,
        write_policy: o['write_policy'] as string,
      };
    }),
  };
}

/** Reports for every validator prepare asked for; `outcomes` overrides per validator id (default passed). */
export function reportsFor(
  prepared: JsonObject,
  checkpoint: JsonObject,
  outcomes: Record<string, { outcome: 'passed' | 'failed'; findings?: JsonObject[] }> = {},
): JsonObject[] {
  const host = checkpoint['host'] as JsonObject;
  return (prepared['validators'] as JsonObject[]).map((v) => {
    const o = outcomes[v['validator_id'] as string];
    return {
      validator_id: v['validator_id'] as string,
      validator_version: v['validator_version'] as string,
      instruction_sha256: v['instruction_sha256'] as string,
      input_artifacts: v['input_artifacts'] as JsonValue,
      validated_by: { harness: host['harness'] as string, adapter_version: host['adapter_version'] as string },
      outcome: o?.outcome ?? 'passed',
      findings: o?.findings ?? [],
    };
  });
}

/** The setup host attestation a faithful harness reports for a setup step payload (project-local when offered). */
export function setupAttestation(step: JsonObject, checkpoint: JsonObject, preferProjectLocal = true): JsonObject {
  const host = checkpoint['host'] as JsonObject;
  const adapter = step['host_adapter'] as JsonObject;
  const assets = (step['host_assets'] as JsonObject[]).map((a) => {
    const local = a['project_local'] as JsonObject | null;
    const useLocal = preferProjectLocal && local !== null;
    return {
      kind: a['kind'] as string,
      asset_id: a['id'] as string,
      version: a['version'] as string,
      sha256: useLocal ? (local['sha256'] as string) : (a['sha256'] as string),
      delivery: useLocal ? 'project-local' : 'dynamic-context',
      path: useLocal ? (local['path'] as string) : null,
    };
  });
  assets.push({
    kind: 'host-adapter',
    asset_id: adapter['id'] as string,
    version: adapter['version'] as string,
    sha256: adapter['sha256'] as string,
    delivery: 'dynamic-context',
    path: null,
  });
  return {
    harness: host['harness'] as string,
    adapter: { id: host['adapter_id'] as string, version: host['adapter_version'] as string },
    host_capabilities: host['host_capabilities'] as JsonValue,
    validator_capabilities: host['validator_capabilities'] as JsonValue,
    assets,
  };
}
