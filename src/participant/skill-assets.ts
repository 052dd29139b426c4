/**
 * A skill host asset loaded through the MCP Skills extension (`io.modelcontextprotocol/skills`) instead of from the
 * step payload: the entry at the asset's skill URI (`skill://rimthan/<release>/<version>/<id>/SKILL.md`, the release
 * read from the asset's registry URI) must name that very asset and its release digest; its SKILL.md, read with
 * resources/read, must have the entry's size and SHA-256 and a YAML frontmatter equal to the entry's field by field;
 * and the text after the frontmatter must be the content the release digest covers. Only then is the content handed
 * to the host, which delivers it as dynamic context with the asset's own digest (the SKILL.md file's digest is not
 * what a delivery attests). Any failed check is `asset_digest_mismatch`; nothing unverified is returned.
 */
import { parse } from 'yaml';
import { isJsonObject, sha256Hex } from '../core/index.js';
import type { JsonObject } from '../core/index.js';
import { RELEASE_ASSET_META_KEY, skillUri } from '../guided/index.js';
import { ParticipantError, ParticipantErrorCode } from './errors.js';
import type { HostAssetPayload, ResourceReader } from './payload.js';

/** The Skills extension's identifier, as a server declares it under `capabilities.extensions`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** Answers `skills/get`: the entry (a JSON object as sent), or undefined when the server serves no skill there. */
export type SkillGetter = (uri: string) => Promise<JsonObject | undefined>;

/** A skill asset's content as loaded through the extension, with the URI of the SKILL.md it came from. */
export interface LoadedSkill {
  readonly uri: string;
  /** The asset content (what the release digest covers). */
  readonly content: string;
}

const REGISTRY_ASSET = /^rimthan:\/\/registry\/([^/]+)\/assets\/skill\/[^/]+\/[^/]+\/content$/;
const FRONTMATTER = /^---\n([\s\S]*?)\n?---\n\n/;

function refuse(asset: HostAssetPayload, why: string): never {
  throw new ParticipantError(
    ParticipantErrorCode.AssetDigestMismatch,
    `skill ${asset.id}@${asset.version} through the Skills extension: ${why}`,
  );
}

/** The SKILL.md URI of a skill host asset (undefined when its registry URI is not a skill asset's). */
export function skillUriOf(asset: Pick<HostAssetPayload, 'kind' | 'id' | 'version' | 'uri'>): string | undefined {
  const release = asset.kind === 'skill' ? REGISTRY_ASSET.exec(asset.uri)?.[1] : undefined;
  return release === undefined ? undefined : skillUri(release, asset);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return a === b;
}

/**
 * Loads and verifies one skill host asset through skills/get + resources/read (see the module comment); undefined
 * when the server serves no skill at the asset's URI.
 */
export async function loadSkillAsset(
  asset: HostAssetPayload,
  getSkill: SkillGetter,
  readResource: ResourceReader,
): Promise<LoadedSkill | undefined> {
  const uri = skillUriOf(asset);
  if (uri === undefined) refuse(asset, 'its resource URI is not a skill asset URI');
  const entry = await getSkill(uri);
  // Not served there (a listing may be partial; an asset that does not fit SKILL.md is not packaged): the caller
  // delivers it from the step payload, whose release digest it checks as well.
  if (entry === undefined) return undefined;
  if (entry['uri'] !== uri) refuse(asset, `the server answered for another skill than ${uri}`);
  const meta = isJsonObject(entry['_meta']) ? entry['_meta'][RELEASE_ASSET_META_KEY] : undefined;
  const named = isJsonObject(meta) ? meta : {};
  if (named['kind'] !== 'skill' || named['id'] !== asset.id || named['version'] !== asset.version) {
    refuse(asset, 'the entry names another asset');
  }
  if (named['sha256'] !== asset.sha256) refuse(asset, `the entry does not carry the release digest ${asset.sha256}`);
  const resources = Array.isArray(entry['resources']) ? entry['resources'] : [];
  const listed = resources.find((r) => isJsonObject(r) && r['uri'] === uri) as JsonObject | undefined;
  if (listed === undefined) refuse(asset, 'the entry does not list its SKILL.md');
  const text = await readResource(uri);
  if (text === undefined) refuse(asset, `the server does not serve ${uri}`);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length !== listed['size'] || `sha256:${sha256Hex(bytes)}` !== listed['digest']) {
    refuse(asset, 'SKILL.md does not have the size and digest its entry lists');
  }
  const match = FRONTMATTER.exec(text);
  let frontmatter: unknown;
  try {
    frontmatter = match === null ? undefined : (parse(match[1] ?? '') as unknown);
  } catch {
    frontmatter = undefined;
  }
  if (!sameJson(frontmatter, entry['frontmatter'])) refuse(asset, "SKILL.md's frontmatter differs from its entry's");
  const body = text.slice((match as RegExpExecArray)[0].length);
  // SKILL.md ends with a newline; the content may or may not.
  const content = [body, body.replace(/\n$/, '')].find((b) => sha256Hex(b) === asset.sha256);
  if (content === undefined) refuse(asset, `the skill's text is not the content with the release digest`);
  return { uri, content };
}
