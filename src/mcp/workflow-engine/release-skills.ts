/**
 * The skills the workflow-engine profile serves through the Skills extension (extensions/skills.ts): every skill asset
 * of a release as a `Skill` entry (SEP-2640) built from its skill package (guided/host/skill-packages.ts), with the
 * SHA-256 manifest of its files (`sha256:<hex>`, size) and, under `_meta["dev.rimthan/release-asset"]`, the release
 * asset it is with the release's own digest (what a host attests when it loads the skill as dynamic context). The
 * listing is the active release's; an entry or a file of any other release is found by the release name its URI
 * carries (pinned, like rimthan://registry URIs), so a loaded skill stays readable after the active release moves.
 * Built once per release object (releases are immutable).
 */
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import { isRimthanError } from '../../core/index.js';
import { RELEASE_ASSET_META_KEY, releaseSkillPackages, skillUriRelease } from '../../guided/index.js';
import type { SkillFile } from '../../guided/index.js';
import type { Release } from '../../registry/model/index.js';
import { isSafeSegment, MAX_URI_LENGTH } from './resource-uris.js';
import { privateCacheMeta } from '../server/wire.js';
import type { ReleaseLookup } from './release-scopes.js';

/** The skills of one release: entries in URI order, and the entries and files by URI. */
interface ReleaseSkillSet {
  readonly entries: readonly Skill[];
  readonly byUri: ReadonlyMap<string, Skill>;
  readonly files: ReadonlyMap<string, SkillFile>;
}

function skillSetOf(release: Release): ReleaseSkillSet {
  const entries: Skill[] = [];
  const files = new Map<string, SkillFile>();
  for (const pkg of releaseSkillPackages(release)) {
    entries.push({
      uri: pkg.uri,
      frontmatter: { ...pkg.frontmatter },
      resources: pkg.files.map((f) => ({ uri: f.uri, digest: `sha256:${f.sha256}`, size: f.size })),
      _meta: { [RELEASE_ASSET_META_KEY]: { ...pkg.asset }, ...privateCacheMeta() },
    });
    for (const f of pkg.files) files.set(f.uri, f);
  }
  return { entries, byUri: new Map(entries.map((e) => [e.uri, e])), files };
}

/** The skills served: the active release's listing, any release's entry or file by URI. */
export interface ReleaseSkills {
  /** The active release's skill entries, in URI order. */
  list(): Promise<readonly Skill[]>;
  /** The entry whose SKILL.md is at `uri`; undefined when no release serves one there. */
  get(uri: string): Promise<Skill | undefined>;
  /** The skill file at `uri`; undefined when no release serves one there. */
  file(uri: string): Promise<SkillFile | undefined>;
}

/** Skills over the given releases (active, and pinned by name). */
export function releaseSkills(releases: ReleaseLookup): ReleaseSkills {
  const cache = new WeakMap<Release, ReleaseSkillSet>();
  const setOf = (release: Release): ReleaseSkillSet => {
    let set = cache.get(release);
    if (set === undefined) {
      set = skillSetOf(release);
      cache.set(release, set);
    }
    return set;
  };
  /** The skills of the release `uri` names; undefined for a URI of no release (or one that cannot be read). */
  async function setFor(uri: string): Promise<ReleaseSkillSet | undefined> {
    if (uri.length > MAX_URI_LENGTH) return undefined;
    const name = skillUriRelease(uri);
    if (name === undefined || !isSafeSegment(name)) return undefined;
    try {
      const release = await releases.namedRelease(name);
      return release === undefined ? undefined : setOf(release);
    } catch (error) {
      if (isRimthanError(error)) return undefined; // an unreadable pinned release is not served
      throw error;
    }
  }
  return {
    async list() {
      return setOf(await releases.activeRelease()).entries;
    },
    async get(uri) {
      return (await setFor(uri))?.byUri.get(uri);
    },
    async file(uri) {
      return (await setFor(uri))?.files.get(uri);
    },
  };
}
