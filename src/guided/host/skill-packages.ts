/**
 * A release's skill assets as skill packages a host can load without writing files: one package per skill asset, at
 * `skill://rimthan/<release>/<version>/<asset-id>/SKILL.md` (the last path segment before SKILL.md is the skill's
 * name, as the Agent Skills convention requires), holding one file, the asset's SKILL.md (the very bytes project-local
 * delivery writes), with its SHA-256 and size, and the frontmatter object that SKILL.md's YAML frontmatter parses to.
 * Each package also names the release asset it comes from and that asset's own digest: a host that loads a skill this
 * way delivers the asset into its context, so it attests the delivery as `dynamic-context` with that digest, exactly
 * like any other dynamic delivery. Pure and deterministic: the same release always yields byte-identical packages.
 * The URI is built and read back here only ({@link skillUri}, {@link skillUriRelease}).
 */
import { sha256Hex } from '../../core/index.js';
import type { AssetEntry, Release } from '../../registry/model/index.js';
import { renderSkillFile, skillFrontmatter } from './render.js';

export const SKILL_URI_PREFIX = 'skill://rimthan/';
/** The `_meta` key of a served Skill entry naming the release asset it is (release, kind, id, version, sha256). */
export const RELEASE_ASSET_META_KEY = 'dev.rimthan/release-asset';

export interface SkillFile {
  readonly uri: string;
  /** Path inside the skill directory. */
  readonly path: string;
  readonly mimeType: string;
  readonly text: string;
  /** SHA-256 (hex) of the file's UTF-8 bytes. */
  readonly sha256: string;
  /** Length of the file's UTF-8 bytes. */
  readonly size: number;
}

export interface SkillPackage {
  /** URI of the package's SKILL.md. */
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  /** The SKILL.md YAML frontmatter as the object it parses to (`name`, `description`). */
  readonly frontmatter: Readonly<{ name: string; description: string }>;
  readonly files: readonly SkillFile[];
  /** The release asset this skill is, with the release's own digest of its content (what a delivery attests). */
  readonly asset: {
    readonly release: string;
    readonly kind: 'skill';
    readonly id: string;
    readonly version: string;
    readonly sha256: string;
  };
}

/** The SKILL.md URI of a skill asset of `release`. */
export function skillUri(release: string, asset: Pick<AssetEntry, 'id' | 'version'>): string {
  return `${SKILL_URI_PREFIX}${encodeURIComponent(release)}/${encodeURIComponent(asset.version)}/${asset.id}/SKILL.md`;
}

/**
 * The release name a skill URI of {@link skillUri}'s shape names, or undefined for any other string (the segment must
 * be canonically encoded; the caller still matches the whole URI against that release's packages).
 */
export function skillUriRelease(uri: string): string | undefined {
  if (!uri.startsWith(SKILL_URI_PREFIX) || !uri.endsWith('/SKILL.md')) return undefined;
  const segments = uri.slice(SKILL_URI_PREFIX.length).split('/');
  if (segments.length !== 4) return undefined;
  const [encoded] = segments as [string];
  let release: string;
  try {
    release = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  return release.length > 0 && encodeURIComponent(release) === encoded ? release : undefined;
}

function packageOf(release: string, asset: AssetEntry): SkillPackage | undefined {
  const text = renderSkillFile(asset);
  const frontmatter = skillFrontmatter(asset);
  if (text === undefined || frontmatter === undefined) return undefined;
  const uri = skillUri(release, asset);
  const bytes = Buffer.from(text, 'utf8');
  return Object.freeze({
    uri,
    name: asset.id,
    description: asset.description,
    frontmatter,
    files: Object.freeze([
      Object.freeze({
        uri,
        path: 'SKILL.md',
        mimeType: 'text/markdown',
        text,
        sha256: sha256Hex(bytes),
        size: bytes.length,
      }),
    ]),
    asset: Object.freeze({
      release,
      kind: 'skill' as const,
      id: asset.id,
      version: asset.version,
      sha256: asset.sha256,
    }),
  });
}

/** Every skill asset of `release` as a package, sorted by URI (assets that do not fit SKILL.md frontmatter are left out). */
export function releaseSkillPackages(release: Release): readonly SkillPackage[] {
  const packages = release.assets
    .filter((a) => a.kind === 'skill')
    .map((a) => packageOf(release.release, a))
    .filter((p): p is SkillPackage => p !== undefined);
  return Object.freeze(packages.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0)));
}
