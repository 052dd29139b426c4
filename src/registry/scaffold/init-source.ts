/**
 * `registry init`: the files of a new source folder for one workflow. The package's templates
 * (templates/registry-init/, `__workflow__` in file names and `{{name}}` in texts) filled in for the workflow id, plus
 * the shared host adapters, validator subagent and setup instruction copied from the packaged library, and each
 * YAML file's `$schema` modeline pointing at the package's authoring schemas from where the file will be.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { packageRoot } from '../../package/index.js';
import { isKebabId, MAX_ID_LENGTH } from '../model/naming.js';
import { Harness } from '../model/release.js';
import { sharedAssets } from './shared-assets.js';
import type { SharedAsset } from './shared-assets.js';

/** Where the templates ship, relative to the package root. */
export const INIT_TEMPLATE_DIR = 'templates/registry-init';
/** The version every scaffolded entry starts at. */
export const INIT_VERSION = '0.1.0';
/** The longest entry-id suffix the templates add to the workflow id. */
const LONGEST_SUFFIX = '-plan-check';
/** The longest workflow id `registry init` accepts (every id it derives stays within the id limit). */
export const MAX_INIT_WORKFLOW_ID = MAX_ID_LENGTH - LONGEST_SUFFIX.length;

/** One file to write, relative to the new source folder (POSIX separators). */
export interface ScaffoldFile {
  readonly rel: string;
  readonly text: string;
}

export interface Scaffold {
  readonly files: readonly ScaffoldFile[];
  readonly release: string;
  /** The packaged release the shared assets come from. */
  readonly sharedFrom: string;
}

/** True for a workflow id `registry init` can scaffold. */
export function isInitWorkflowId(id: string): boolean {
  return isKebabId(id) && id.length <= MAX_INIT_WORKFLOW_ID;
}

function templateFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix))
    .sort()
    .flatMap((name) => {
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      return statSync(join(dir, rel)).isDirectory() ? templateFiles(dir, rel) : [rel];
    });
}

function refText(asset: SharedAsset, kind?: string): string {
  return `{ ${kind === undefined ? '' : `kind: ${kind}, `}id: ${asset.id}, version: ${asset.version} }`;
}

/**
 * The files of a new source folder for `workflow`, to be written at `targetDir` (absolute; it decides the relative
 * `$schema` paths). Throws on a workflow id {@link isInitWorkflowId} refuses.
 */
export function scaffoldSource(workflow: string, targetDir: string): Scaffold {
  if (!isInitWorkflowId(workflow)) throw new Error(`not a workflow id registry init accepts: ${workflow}`);
  const root = packageRoot();
  const shared = sharedAssets();
  const release = `${workflow}-${INIT_VERSION}`;
  const codex = shared.adapters.get(Harness.Codex);
  const vars: Record<string, string> = {
    workflow,
    registry_id: workflow,
    release,
    host_adapters: [...shared.adapters].map(([harness, a]) => `  ${harness}: ${refText(a)}`).join('\n'),
    setup_instruction: refText(shared.setupInstruction),
    setup_instruction_file: `${shared.setupInstruction.id}@${shared.setupInstruction.version}.md`,
    subagent: refText(shared.subagent, 'subagent'),
    workspace_manifest_schema: refText(shared.workspaceManifest),
    workspace_manifest_file: `${shared.workspaceManifest.id}@${shared.workspaceManifest.version}.json`,
    subagent_id: shared.subagent.id,
    subagent_version: shared.subagent.version,
    'adapter_id:codex': codex?.id ?? '',
    'adapter_version:codex': codex?.version ?? '',
  };
  const fill = (rel: string, text: string): string =>
    text.replace(/\{\{([a-z_]+)(?::([a-z-]+))?\}\}/g, (whole, name: string, arg: string | undefined) => {
      if (name === 'schema' && arg !== undefined) {
        const schema = join(root, 'schemas', 'authoring', `${arg}.schema.json`);
        return relative(dirname(join(targetDir, rel)), schema)
          .split(sep)
          .join('/');
      }
      const value = vars[arg === undefined ? name : `${name}:${arg}`];
      if (value === undefined) throw new Error(`template ${rel}: unknown placeholder ${whole}`);
      return value;
    });
  const templates = join(root, INIT_TEMPLATE_DIR);
  const files: ScaffoldFile[] = templateFiles(templates).map((template) => {
    const rel = template.replaceAll('__workflow__', workflow);
    return { rel, text: fill(rel, readFileSync(join(templates, template), 'utf8')) };
  });
  const copied = new Map<string, SharedAsset>();
  for (const asset of [...shared.adapters.values(), shared.subagent, shared.setupInstruction, shared.workspaceManifest])
    copied.set(asset.rel, asset);
  for (const asset of copied.values()) files.push({ rel: asset.rel, text: asset.text });
  return { files: files.sort((a, b) => (a.rel < b.rel ? -1 : 1)), release, sharedFrom: shared.release };
}
