/**
 * Verification of a release file before anything uses it: strict JSON under a size cap, closed shape, every entry
 * digest and the manifest digest recomputed, then the full authoring validation, so a tampered or hand-made file
 * cannot smuggle in a release the build would refuse. Failure reasons are fixed codes (never file content).
 */
import { canonicalJson, digestJson, parseStrictJsonBytes, sha256Hex } from '../core/index.js';
import type { Release } from './model.js';
import { assembleReleaseFile, releaseOf } from './manifest.js';
import { readReleaseFile, RELEASE_FORMAT } from './shape/release-shape.js';
import type { ShapeIssue } from './shape/reader.js';
import { validateContent } from './validate/index.js';

/** Largest release file accepted. */
export const MAX_RELEASE_BYTES = 32 * 1024 * 1024;

export const ReleaseRejection = {
  TooLarge: 'release_too_large',
  MalformedJson: 'malformed_json',
  UnsupportedFormat: 'unsupported_format',
  InvalidShape: 'invalid_shape',
  DigestMismatch: 'digest_mismatch',
  ManifestMismatch: 'manifest_mismatch',
  ManifestDigestMismatch: 'manifest_digest_mismatch',
  InvalidRelease: 'invalid_release',
} as const;
export type ReleaseRejection = (typeof ReleaseRejection)[keyof typeof ReleaseRejection];

export type VerifyResult = { ok: true; release: Release } | { ok: false; reason: string };

/**
 * Verifies release file bytes and returns the frozen release. `reason` is one of {@link ReleaseRejection}, for
 * `invalid_release` followed by the first authoring problem code (`invalid_release: alias_collision`).
 */
export function verifyReleaseFile(bytes: Uint8Array): VerifyResult {
  if (bytes.byteLength > MAX_RELEASE_BYTES) return fail(ReleaseRejection.TooLarge);
  const parsed = parseStrictJsonBytes(bytes, { maxBytes: MAX_RELEASE_BYTES, maxDepth: 64, maxKeys: 2_000_000 });
  if (!parsed.ok) return fail(ReleaseRejection.MalformedJson);
  const value = parsed.value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && value.format !== RELEASE_FORMAT) {
    return fail(ReleaseRejection.UnsupportedFormat);
  }
  const issues: ShapeIssue[] = [];
  const file = readReleaseFile(value, issues);
  if (file === undefined) return fail(ReleaseRejection.InvalidShape);
  try {
    for (const a of file.assets) if (a.sha256 !== sha256Hex(a.content)) return fail(ReleaseRejection.DigestMismatch);
    for (const s of file.schemas) if (s.sha256 !== digestJson(s.schema)) return fail(ReleaseRejection.DigestMismatch);
    const content = { ...file, registry_id: file.manifest.registry_id, release: file.manifest.release };
    const expected = assembleReleaseFile(content).manifest;
    if (canonicalJson(expected) !== canonicalJson(file.manifest)) return fail(ReleaseRejection.ManifestMismatch);
    if (digestJson(file.manifest) !== file.manifest_sha256) return fail(ReleaseRejection.ManifestDigestMismatch);
    const problems = validateContent(content, { locate: (site) => ({ file: site.entry, line: 0 }) });
    const first = problems[0];
    if (first !== undefined) return fail(`${ReleaseRejection.InvalidRelease}: ${first.code}`);
  } catch {
    return fail(ReleaseRejection.MalformedJson);
  }
  return { ok: true, release: deepFreeze(releaseOf(file)) };
}

function fail(reason: string): VerifyResult {
  return { ok: false, reason };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
