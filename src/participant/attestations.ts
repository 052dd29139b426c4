/**
 * Attestations built from the files on disk, never from memory of what was written:
 * - the setup host attestation: per host asset, project-local when its file is at the adapter's path with the served
 *   digest (read back byte for byte), else dynamic-context; plus the host adapter itself; bound to the checkpoint's
 *   harness, adapter and capability sets;
 * - the output attestation of a gated step: per declared output, the SHA-256 of the bytes read back from its declared
 *   path (every component lstat-checked, a symlink anywhere refused) and the write policy checked against what exists.
 * The pure builders (`hostAttestationFor`, `outputAttestationFor`, `workspaceManifestFor`) state the same facts from
 * given digests; the disk readers feed them.
 */
import { sha256Hex } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import type { AssetDelivery } from './host-assets.js';
import { assetLabel, chooseMode } from './host-assets.js';
import type { OutputPayload, StepPayload } from './payload.js';
import type { Workspace } from './workspace.js';

/** The host binding of a checkpoint envelope (`checkpoint.host`). */
export interface CheckpointHost {
  readonly harness: string;
  readonly adapter_id: string;
  readonly adapter_version: string;
  readonly host_capabilities: readonly string[];
  readonly validator_capabilities: readonly string[];
}

/** Reads `checkpoint.host`. */
export function checkpointHost(checkpoint: JsonObject): CheckpointHost {
  return checkpoint['host'] as unknown as CheckpointHost;
}

/** The setup host attestation for `deliveries` (the host adapter is added as dynamic context). */
export function hostAttestationFor(
  host: CheckpointHost,
  step: StepPayload,
  deliveries: readonly AssetDelivery[],
): JsonObject {
  const adapter = step.host_adapter;
  return {
    harness: host.harness,
    adapter: { id: host.adapter_id, version: host.adapter_version },
    host_capabilities: [...host.host_capabilities],
    validator_capabilities: [...host.validator_capabilities],
    assets: [
      ...deliveries.map((d) => ({
        kind: d.kind,
        asset_id: d.asset_id,
        version: d.version,
        sha256: d.sha256,
        delivery: d.delivery,
        path: d.path,
      })),
      {
        kind: 'host-adapter',
        asset_id: adapter.id,
        version: adapter.version,
        sha256: adapter.sha256,
        delivery: 'dynamic-context',
        path: null,
      },
    ],
  };
}

/** The workspace manifest (setup's `workspace-manifest` artifact) stating what `attestation` states. */
export function workspaceManifestFor(attestation: JsonObject): JsonObject {
  const assets = (attestation['assets'] as JsonObject[]).filter((a) => a['kind'] !== 'host-adapter');
  return {
    harness: attestation['harness'] ?? null,
    adapter: attestation['adapter'] ?? null,
    delivered_assets: assets.map((a) => ({
      kind: a['kind'] ?? null,
      id: a['asset_id'] ?? null,
      version: a['version'] ?? null,
      sha256: a['sha256'] ?? null,
      delivery: a['delivery'] ?? null,
      ...(a['path'] === null || a['path'] === undefined ? {} : { path: a['path'] }),
    })),
  };
}

/** The manifest's file text (two-space JSON and a final newline). */
export function workspaceManifestText(attestation: JsonObject): string {
  return `${JSON.stringify(workspaceManifestFor(attestation), null, 2)}\n`;
}

/**
 * What the workspace holds of `step`'s host assets, read back: project-local where the payload offers it and the file
 * at its path has the served digest; dynamic-context otherwise. A project-local file that is there but differs was
 * edited after delivery: refused.
 */
export function deliveriesOnDisk(workspace: Workspace, step: StepPayload): AssetDelivery[] {
  return step.host_assets.map((asset) => {
    const base = { kind: asset.kind, asset_id: asset.id, version: asset.version };
    const local = asset.project_local;
    if (local !== null && asset.delivery_modes.includes('project-local')) {
      const bytes = workspace.read(local.path, 16 * 1024 * 1024);
      if (bytes !== undefined) {
        if (sha256Hex(bytes) !== local.sha256) {
          throw new ParticipantError(
            ParticipantErrorCode.AssetDigestMismatch,
            `${local.path} differs from the served ${assetLabel(asset)} file (edited after delivery?); deliver it again`,
          );
        }
        return { ...base, delivery: 'project-local', sha256: sha256Hex(bytes), path: local.path };
      }
    }
    chooseMode({ ...asset, project_local: null }, false);
    return { ...base, delivery: 'dynamic-context', sha256: asset.sha256, path: null };
  });
}

/** The setup host attestation of what is on disk now. */
export function hostAttestationFromDisk(workspace: Workspace, step: StepPayload, host: CheckpointHost): JsonObject {
  return hostAttestationFor(host, step, deliveriesOnDisk(workspace, step));
}

/** An artifact as prepare takes it. */
export interface PreparedArtifact {
  readonly artifact_id: string;
  readonly media_type: string;
  readonly content: string;
  readonly path: string;
}

/** The output attestation of `step` for artifacts whose digests were read back from disk. */
export function outputAttestationFor(step: StepPayload, artifacts: readonly PreparedArtifact[]): JsonObject {
  const stepId = step.step.id;
  return {
    step_id: stepId,
    outputs: step.outputs.map((o) => {
      const artifact = artifacts.find((a) => a.artifact_id === o.artifact_id);
      return {
        artifact_id: o.artifact_id,
        path: o.path,
        owner_step: stepId,
        media_type: o.media_type,
        schema_sha256: o.schema === null ? null : o.schema.sha256,
        max_bytes: o.max_bytes,
        content_sha256: sha256Hex(artifact?.content ?? ''),
        symlink_free: true,
        readback_verified: true,
        write_policy: o.write_policy,
      };
    }),
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** Largest artifact read back (the workflow-engine request cap); the declaration's max_bytes is the server's check. */
export const MAX_READBACK_BYTES = 4 * 1024 * 1024;

/** Refuses what exists when it breaks `output`'s write policy against the checkpoint's earlier receipt. */
function checkWritePolicy(output: OutputPayload, digest: string, prior: Readonly<Record<string, string>>): void {
  const earlier = Object.prototype.hasOwnProperty.call(prior, output.artifact_id)
    ? prior[output.artifact_id]
    : undefined;
  const keeps = output.write_policy === 'create-owned' || output.write_policy === 'create-or-verify-owned';
  if (keeps && earlier !== undefined && earlier !== digest) {
    throw new ParticipantError(
      ParticipantErrorCode.WritePolicyViolation,
      `${output.path} (${output.write_policy}) was accepted earlier with other content; it may not be replaced`,
    );
  }
}

/** Reads one declared output back from disk as prepare's artifact. */
export function readOutput(
  workspace: Workspace,
  output: OutputPayload,
  prior: Readonly<Record<string, string>> = {},
): PreparedArtifact {
  workspace.checkPath(output.path, `the output path of ${output.artifact_id}`);
  const bytes = workspace.read(output.path, MAX_READBACK_BYTES);
  if (bytes === undefined) {
    throw new ParticipantError(
      ParticipantErrorCode.OutputMissing,
      `${output.path} (${output.artifact_id}) is not there yet${output.write_policy === 'must-exist' ? ' (must-exist: it is never created by this step)' : ''}`,
    );
  }
  let content: string;
  try {
    content = UTF8.decode(bytes);
  } catch {
    throw new ParticipantError(ParticipantErrorCode.ArtifactUnreadable, `${output.path} is not UTF-8 text`);
  }
  checkWritePolicy(output, sha256Hex(bytes), prior);
  return { artifact_id: output.artifact_id, media_type: output.media_type, content, path: output.path };
}

/** Every declared output of `step` read back, with the output attestation stating their on-disk digests. */
export function outputsFromDisk(
  workspace: Workspace,
  step: StepPayload,
  prior: Readonly<Record<string, string>> = {},
): { artifacts: PreparedArtifact[]; attestation: JsonObject } {
  const artifacts = step.outputs.map((o) => readOutput(workspace, o, prior));
  return { artifacts, attestation: outputAttestationFor(step, artifacts) };
}

/**
 * Writes an artifact at its declared path as its write policy allows (create-owned and create-or-verify-owned never
 * change an existing different file; must-exist is never written), then reads it back.
 */
export function writeOutput(workspace: Workspace, output: OutputPayload, content: string): PreparedArtifact {
  workspace.checkPath(output.path, `the output path of ${output.artifact_id}`);
  const existing = workspace.read(output.path, MAX_READBACK_BYTES);
  const bytes = Buffer.from(content, 'utf8');
  if (output.write_policy === 'must-exist') {
    throw new ParticipantError(
      ParticipantErrorCode.WritePolicyViolation,
      `${output.path} is must-exist: never written`,
    );
  }
  if (existing !== undefined && !existing.equals(bytes) && output.write_policy !== 'create-or-replace-owned') {
    throw new ParticipantError(
      ParticipantErrorCode.WritePolicyViolation,
      `${output.path} exists with other content and is ${output.write_policy}`,
    );
  }
  if (existing === undefined || !existing.equals(bytes)) workspace.write(output.path, bytes);
  return readOutput(workspace, output);
}
