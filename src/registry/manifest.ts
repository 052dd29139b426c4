/**
 * Release assembly: deterministic entry order, per-entry digests, the manifest and its digest, and the canonical
 * byte form of a release file (same content → byte-identical file).
 */
import { canonicalJson, digestJson } from '../core/index.js';
import type { ReleaseContent } from './content.js';
import type {
  AssetEntry,
  ManifestEntry,
  Release,
  ReleaseFile,
  ReleaseManifest,
  SchemaEntry,
  ValidatorDefinition,
  WorkflowDefinition,
} from './model/release.js';
import { compareVersions, isVersion } from './model/naming.js';
import { cmp } from './problems.js';
import { RELEASE_FORMAT } from './shape/release-shape.js';

function byVersion(a: string, b: string): number {
  return isVersion(a) && isVersion(b) ? compareVersions(a, b) || cmp(a, b) : cmp(a, b);
}

function byIdVersion(a: { id: string; version: string }, b: { id: string; version: string }): number {
  return cmp(a.id, b.id) || byVersion(a.version, b.version);
}

/** The same content with every list in canonical order (steps keep their authored order). */
export function sortContent(content: ReleaseContent): ReleaseContent {
  return {
    registry_id: content.registry_id,
    release: content.release,
    workflows: [...content.workflows].sort(byIdVersion),
    assets: [...content.assets].sort((a, b) => cmp(a.kind, b.kind) || byIdVersion(a, b)),
    validators: [...content.validators].sort(byIdVersion),
    schemas: [...content.schemas].sort(byIdVersion),
  };
}

/** Manifest lines for every entry, each with the digest of the entry's canonical JSON, in canonical order. */
export function manifestEntries(content: ReleaseContent): ManifestEntry[] {
  const line = (type: ManifestEntry['type'], key: string, version: string, entry: unknown): ManifestEntry => ({
    type,
    key,
    version,
    sha256: digestJson(entry),
  });
  const entries = [
    ...content.workflows.map((w: WorkflowDefinition) => line('workflow', w.id, w.version, w)),
    ...content.assets.map((a: AssetEntry) => line('asset', `${a.kind}/${a.id}`, a.version, a)),
    ...content.validators.map((v: ValidatorDefinition) => line('validator', v.id, v.version, v)),
    ...content.schemas.map((s: SchemaEntry) => line('schema', s.id, s.version, s)),
  ];
  return entries.sort(
    (a, b) => cmp(a.type, b.type) || cmp(a.key, b.key) || byVersion(a.version, b.version) || cmp(a.sha256, b.sha256),
  );
}

/** Assembles the release file for validated content. */
export function assembleReleaseFile(content: ReleaseContent): ReleaseFile {
  const sorted = sortContent(content);
  const manifest: ReleaseManifest = {
    registry_id: sorted.registry_id,
    release: sorted.release,
    entries: manifestEntries(sorted),
  };
  return {
    format: RELEASE_FORMAT,
    manifest,
    manifest_sha256: digestJson(manifest),
    workflows: sorted.workflows,
    assets: sorted.assets,
    validators: sorted.validators,
    schemas: sorted.schemas,
  };
}

/** The in-memory release view of a (verified) release file. */
export function releaseOf(file: ReleaseFile): Release {
  return {
    registry_id: file.manifest.registry_id,
    release: file.manifest.release,
    manifest: file.manifest,
    manifest_sha256: file.manifest_sha256,
    workflows: file.workflows,
    assets: file.assets,
    validators: file.validators,
    schemas: file.schemas,
  };
}

/** The release file of a release (inverse of {@link releaseOf}); used to republish or copy a verified release. */
export function releaseFileOf(release: Release): ReleaseFile {
  return {
    format: RELEASE_FORMAT,
    manifest: release.manifest,
    manifest_sha256: release.manifest_sha256,
    workflows: release.workflows,
    assets: release.assets,
    validators: release.validators,
    schemas: release.schemas,
  };
}

/** The canonical bytes of a release file: RFC 8785 JSON plus a trailing newline. */
export function serializeReleaseFile(file: ReleaseFile): Uint8Array {
  return new TextEncoder().encode(`${canonicalJson(file)}\n`);
}
