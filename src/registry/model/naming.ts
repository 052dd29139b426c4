/**
 * Identifier, version and release-name rules shared by the source loader, the validator and the stores.
 */

/** Kebab-case identifier: lowercase letters/digits in hyphen-separated words, starting with a letter, ≤ 64 chars. */
const KEBAB_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** The kebab-case rule as a JSON Schema pattern (the authoring schemas use the same text). */
export const KEBAB_ID_PATTERN = KEBAB_ID.source;
export const MAX_ID_LENGTH = 64;

/** Semantic version `MAJOR.MINOR.PATCH` (no pre-release or build suffix, so "newest" is never ambiguous). */
const VERSION = /^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$/;
/** The version rule as a JSON Schema pattern. */
export const VERSION_PATTERN = VERSION.source;

/** Release names as used in URIs and store file names. */
export const RELEASE_NAME = /^[a-z0-9][a-z0-9.-]{0,127}$/;
/** Release names as a JSON Schema pattern (no `..` either). */
export const RELEASE_NAME_PATTERN = `^(?!.*\\.\\.)${RELEASE_NAME.source.slice(1)}`;

/** True for a kebab-case identifier of at most 64 characters. */
export function isKebabId(value: string): boolean {
  return value.length <= MAX_ID_LENGTH && KEBAB_ID.test(value);
}

/** True for a `MAJOR.MINOR.PATCH` version. */
export function isVersion(value: string): boolean {
  return VERSION.test(value);
}

/** True for a release name safe to use in URIs and as a file name (`research-2026.11.1`). */
export function isReleaseName(value: string): boolean {
  return RELEASE_NAME.test(value) && !value.includes('..');
}

/** Orders two valid versions by semantic-version precedence (negative, zero, positive). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Splits an entry file name `<id>@<version><ext>`; undefined when the name does not have that form. */
export function parseEntryFileName(name: string, ext: string): { id: string; version: string } | undefined {
  if (!name.endsWith(ext)) return undefined;
  const stem = name.slice(0, -ext.length);
  const at = stem.indexOf('@');
  if (at <= 0 || at !== stem.lastIndexOf('@')) return undefined;
  const id = stem.slice(0, at);
  const version = stem.slice(at + 1);
  return isKebabId(id) && isVersion(version) ? { id, version } : undefined;
}
