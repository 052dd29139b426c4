/** Checking and building an authoring source folder into an immutable release file. */
import { REGISTRY_ENTRY } from './content.js';
import type { ReleaseContent } from './content.js';
import type { Release, ReleaseFile } from './model/release.js';
import { assembleReleaseFile, releaseOf } from './manifest.js';
import { isReleaseName } from './model/naming.js';
import { ProblemCode, sortProblems } from './problems.js';
import type { Locator, Problem } from './problems.js';
import { loadSource } from './source/load-source.js';
import { validateContent } from './validate/index.js';

export type CheckSourceResult =
  { ok: true; release: Release; problems: readonly [] } | { ok: false; problems: readonly Problem[] };
export type BuildResult = { ok: true; file: ReleaseFile } | { ok: false; problems: readonly Problem[] };

/**
 * Loads and validates the source folder `dir`; every problem (not only the first) is returned with its file and line.
 * On success also returns the release the source compiles to, so callers can graph or inspect it without a build.
 */
export function checkSource(dir: string): CheckSourceResult {
  const checked = loadAndValidate(dir);
  if (!checked.ok) return checked;
  return { ok: true, release: releaseOf(assembleReleaseFile(checked.content)), problems: [] };
}

/**
 * Builds the release file for the source folder `dir`: entries in canonical order, a manifest with per-entry
 * SHA-256 digests and the manifest digest. The same source always gives the same file (write it with
 * `serializeReleaseFile` for byte-identical output).
 */
export function buildRelease(dir: string): BuildResult {
  const checked = loadAndValidate(dir);
  if (!checked.ok) return checked;
  return { ok: true, file: assembleReleaseFile(checked.content) };
}

/** A development build: the release file under its own name, and the name the source gives (registry.yaml). */
export type DevBuildResult =
  { ok: true; file: ReleaseFile; sourceRelease: string } | { ok: false; problems: readonly Problem[] };

/**
 * Builds the source folder `dir` as a development release named `<release>-dev.<digest8>`, where digest8 is the first
 * eight hex digits of the manifest digest the source builds to under its own name: every different build is a
 * different (immutable) release, and the same source always gets the same name (`rimthan serve --source`).
 */
export function buildDevRelease(dir: string): DevBuildResult {
  const checked = loadAndValidate(dir);
  if (!checked.ok) return checked;
  const digest8 = assembleReleaseFile(checked.content).manifest_sha256.slice(0, 8);
  const release = `${checked.content.release}-dev.${digest8}`;
  if (!isReleaseName(release)) {
    return {
      ok: false,
      problems: [
        {
          ...checked.locate({ entry: REGISTRY_ENTRY, path: ['release'] }),
          code: ProblemCode.InvalidReleaseName,
          message: `release is too long for a development build name (<release>-dev.<8 hex digits>, at most 128 characters)`,
        },
      ],
    };
  }
  return {
    ok: true,
    file: assembleReleaseFile({ ...checked.content, release }),
    sourceRelease: checked.content.release,
  };
}

/** Loads the source folder and runs every authoring rule; the sorted problems, or the content when there are none. */
function loadAndValidate(
  dir: string,
): { ok: true; content: ReleaseContent; locate: Locator } | { ok: false; problems: Problem[] } {
  const loaded = loadSource(dir);
  const problems = sortProblems([
    ...loaded.problems,
    ...validateContent(loaded.content, {
      locate: loaded.locate,
      unloaded: loaded.unloaded,
      headerLoaded: loaded.headerLoaded,
    }),
  ]);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, content: loaded.content, locate: loaded.locate };
}
