/**
 * The shared parts a new source folder takes from the packaged library, so a scaffold always carries the current ones:
 * the newest host adapter of each harness, the validator subagent, the workspace-preparation instruction and the
 * workspace manifest's schema, as source files (frontmatter and body byte for byte) from the source folder of the package's active release.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject } from '../../core/index.js';
import { packageRoot } from '../../package/index.js';
import { compareVersions, parseEntryFileName } from '../model/naming.js';
import { Harness } from '../model/release.js';
import { splitFrontmatter } from '../source/markdown.js';
import { parseYaml } from '../source/yaml-doc.js';

/** One shared source file. */
export interface SharedAsset {
  /** Path inside a source folder (`assets/<kind>/<id>@<version>.md`, `schemas/<id>@<version>.json`). */
  readonly rel: string;
  readonly id: string;
  readonly version: string;
  readonly text: string;
}

export interface SharedAssets {
  /** The release whose source they come from. */
  readonly release: string;
  /** The adapter pinned for each harness the library serves. */
  readonly adapters: ReadonlyMap<Harness, SharedAsset>;
  readonly subagent: SharedAsset;
  readonly setupInstruction: SharedAsset;
  /** The schema of the workspace manifest setup-workspace writes. */
  readonly workspaceManifest: SharedAsset;
}

/** The validator subagent and the setup instruction every library workflow shares. */
export const SHARED_SUBAGENT = 'workflow-validator';
export const SHARED_SETUP_INSTRUCTION = 'prepare-workspace';
export const SHARED_WORKSPACE_MANIFEST = 'workspace-manifest';

/** The source folder of the package's active release (releases/src/<folder> whose registry.yaml names it). */
function activeSourceFolder(): { dir: string; release: string } {
  const releases = join(packageRoot(), 'releases');
  const active = readFileSync(join(releases, 'ACTIVE'), 'utf8').trim();
  for (const folder of readdirSync(join(releases, 'src')).sort()) {
    const dir = join(releases, 'src', folder);
    let text: string;
    try {
      text = readFileSync(join(dir, 'registry.yaml'), 'utf8');
    } catch {
      continue;
    }
    const parsed = parseYaml(text);
    if (parsed.ok && isJsonObject(parsed.doc.value) && parsed.doc.value['release'] === active)
      return { dir, release: active };
  }
  throw new Error(`the package holds no source folder of its active release ${active}`);
}

/** The newest version of each id among `<folder>/*<ext>` (`assets/<kind>`, `schemas`). */
function newest(dir: string, folder: string, ext = '.md'): SharedAsset[] {
  const byId = new Map<string, SharedAsset>();
  for (const name of readdirSync(join(dir, folder)).sort()) {
    const identity = parseEntryFileName(name, ext);
    if (identity === undefined) continue;
    const seen = byId.get(identity.id);
    if (seen !== undefined && compareVersions(seen.version, identity.version) >= 0) continue;
    const rel = `${folder}/${name}`;
    byId.set(identity.id, { rel, ...identity, text: readFileSync(join(dir, rel), 'utf8') });
  }
  return [...byId.values()];
}

function harnessesOf(asset: SharedAsset): Harness[] {
  const parts = splitFrontmatter(asset.text);
  const parsed = parts === undefined ? undefined : parseYaml(parts.frontmatter);
  const value = parsed?.ok === true ? parsed.doc.value : undefined;
  const list = isJsonObject(value) ? value['compatible_harnesses'] : undefined;
  const known: readonly string[] = Object.values(Harness);
  return Array.isArray(list) ? list.filter((h): h is Harness => typeof h === 'string' && known.includes(h)) : [];
}

function one(assets: SharedAsset[], id: string, kind: string): SharedAsset {
  const found = assets.find((a) => a.id === id);
  if (found === undefined) throw new Error(`the packaged library has no ${kind} ${id}`);
  return found;
}

/** Reads the shared assets from the packaged library. */
export function sharedAssets(): SharedAssets {
  const { dir, release } = activeSourceFolder();
  const adapters = new Map<Harness, SharedAsset>();
  for (const adapter of newest(dir, 'assets/host-adapter')) {
    for (const harness of harnessesOf(adapter)) if (!adapters.has(harness)) adapters.set(harness, adapter);
  }
  return {
    release,
    adapters,
    subagent: one(newest(dir, 'assets/subagent'), SHARED_SUBAGENT, 'subagent'),
    setupInstruction: one(newest(dir, 'assets/instruction'), SHARED_SETUP_INSTRUCTION, 'instruction'),
    workspaceManifest: one(newest(dir, 'schemas', '.json'), SHARED_WORKSPACE_MANIFEST, 'schema'),
  };
}
