/**
 * Verification of a release file before anything uses it: strict JSON under a size cap, closed shape, every entry
 * digest and the manifest digest recomputed, then the full authoring validation, so a tampered or hand-made file
 * cannot smuggle in a release the build would refuse. Failure reasons are fixed codes (never file content).
 */
import { canonicalJson, digestJson, parseStrictJsonBytes, sha256Hex } from '../core/index.js';
import type { ManifestEntry, Release } from './model/release.js';
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

/**
 * A failure may name the entry it found at fault (`asset prompt/research-brief@1.0.0`, `workflow research-decision@1.2.0`,
 * `manifest_sha256`): release content, never participant data.
 */
export type VerifyResult = { ok: true; release: Release } | { ok: false; reason: string; entry?: string };

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
    for (const a of file.assets) {
      if (a.sha256 !== sha256Hex(a.content)) {
        return fail(ReleaseRejection.DigestMismatch, `asset ${a.kind}/${a.id}@${a.version}`);
      }
    }
    for (const s of file.schemas) {
      if (s.sha256 !== digestJson(s.schema))
        return fail(ReleaseRejection.DigestMismatch, `schema ${s.id}@${s.version}`);
    }
    const content = { ...file, registry_id: file.manifest.registry_id, release: file.manifest.release };
    const expected = assembleReleaseFile(content).manifest;
    if (canonicalJson(expected) !== canonicalJson(file.manifest)) {
      return fail(ReleaseRejection.ManifestMismatch, firstDifference(expected.entries, file.manifest.entries));
    }
    if (digestJson(file.manifest) !== file.manifest_sha256) {
      return fail(ReleaseRejection.ManifestDigestMismatch, 'manifest_sha256');
    }
    const problems = validateContent(content, { locate: (site) => ({ file: site.entry, line: 0 }) });
    const first = problems[0];
    if (first !== undefined) return fail(`${ReleaseRejection.InvalidRelease}: ${first.code}`, first.file);
  } catch {
    return fail(ReleaseRejection.MalformedJson);
  }
  return { ok: true, release: deepFreeze(releaseOf(file)) };
}

function fail(reason: string, entry?: string): VerifyResult {
  return entry === undefined || entry === '' ? { ok: false, reason } : { ok: false, reason, entry };
}

const entryName = (e: ManifestEntry): string => `${e.type} ${e.key}@${e.version}`;

/** The first manifest entry whose content does not match what the file's entries digest to (or `manifest`). */
function firstDifference(expected: readonly ManifestEntry[], given: readonly ManifestEntry[]): string {
  const seen = new Map(given.map((e) => [`${e.type} ${e.key}@${e.version}`, e.sha256]));
  for (const e of expected) {
    const sha = seen.get(entryName(e));
    if (sha !== e.sha256) return entryName(e);
  }
  const wanted = new Set(expected.map(entryName));
  const extra = given.find((e) => !wanted.has(entryName(e)));
  return extra === undefined ? 'manifest' : entryName(extra);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
