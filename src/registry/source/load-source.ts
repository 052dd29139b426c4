/**
 * Loads an authoring source folder into release content, collecting every read, parse and shape problem with its
 * file and line, plus a locator that maps later validation sites back to source lines.
 */
import { digestJson, isJsonObject } from '../../core/index.js';
import { REGISTRY_ENTRY } from '../content.js';
import type { ReleaseContent } from '../content.js';
import type { AssetEntry, AssetKind, SchemaEntry, ValidatorDefinition, WorkflowDefinition } from '../model/release.js';
import { parseEntryFileName } from '../model/naming.js';
import { ProblemCode, entryKey } from '../problems.js';
import type { Locator, Path, Problem } from '../problems.js';
import { readAssetSource, readValidator } from '../shape/entry-shapes.js';
import { ShapeReader } from '../shape/reader.js';
import type { ShapeIssue } from '../shape/reader.js';
import { readWorkflow } from '../shape/workflow-shape.js';
import { readSourceFiles } from './files.js';
import type { SourceFile } from './files.js';
import { parseJsonWithLines } from './json-doc.js';
import { splitFrontmatter } from './markdown.js';
import { parseYaml } from './yaml-doc.js';
import type { LineError, ParsedYaml } from './yaml-doc.js';

export interface LoadedSource {
  /** Everything that loaded cleanly (entries with problems are left out). */
  readonly content: ReleaseContent;
  readonly problems: readonly Problem[];
  readonly locate: Locator;
  /** Entry keys whose file exists but did not load: references to them are not reported again. */
  readonly unloaded: ReadonlySet<string>;
  /** True when registry.yaml loaded (registry_id and release are meaningful). */
  readonly headerLoaded: boolean;
}

interface Located {
  readonly file: string;
  readonly lineOf: (path: Path) => number;
}

const EXT: Readonly<Record<string, string>> = { workflow: '.yaml', validator: '.yaml', schema: '.json', asset: '.md' };

/** Reads and decodes the source folder `dir` (see docs/authoring.md for the layout). */
export function loadSource(dir: string): LoadedSource {
  const { files, problems } = readSourceFiles(dir);
  const issues: ShapeIssue[] = [];
  const sources = new Map<string, Located>();
  const unloaded = new Set<string>();
  const header = { registry_id: '', release: '' };
  let headerLoaded = false;
  const workflows: WorkflowDefinition[] = [];
  const assets: AssetEntry[] = [];
  const validators: ValidatorDefinition[] = [];
  const schemas: SchemaEntry[] = [];

  const syntax = (file: SourceFile, errors: readonly LineError[]): void => {
    const code = file.kind === 'schema' ? ProblemCode.JsonSyntax : ProblemCode.YamlSyntax;
    for (const e of errors) problems.push({ file: file.rel, line: e.line, code, message: e.message });
  };

  for (const file of files) {
    if (file.kind === 'registry') {
      const parsed = parseYaml(file.text);
      if (!parsed.ok) {
        syntax(file, parsed.errors);
        continue;
      }
      sources.set(REGISTRY_ENTRY, { file: file.rel, lineOf: parsed.doc.lineOf });
      const r = new ShapeReader(REGISTRY_ENTRY, issues);
      const mark = r.mark();
      const o = r.object(parsed.doc.value, [], ['registry_id', 'release']);
      header.registry_id = r.string(o.registry_id, ['registry_id']);
      header.release = r.string(o.release, ['release']);
      headerLoaded = !r.failedSince(mark);
      continue;
    }
    const identity = parseEntryFileName(file.name, EXT[file.kind] ?? '');
    if (identity === undefined) {
      problems.push({
        file: file.rel,
        line: 1,
        code: ProblemCode.FileNameInvalid,
        message: 'file name must be <id>@<version> with a kebab-case id and a MAJOR.MINOR.PATCH version',
      });
      continue;
    }
    const key =
      file.kind === 'asset'
        ? entryKey('asset', identity.id, identity.version, file.assetKind as string)
        : entryKey(file.kind, identity.id, identity.version);
    const before = problems.length + issues.length;
    const r = new ShapeReader(key, issues);
    if (file.kind === 'schema') {
      const parsed = parseJsonWithLines(file.text);
      if (!parsed.ok) syntax(file, parsed.errors);
      else {
        sources.set(key, { file: file.rel, lineOf: (p) => (p[0] === 'schema' ? parsed.doc.lineOf(p.slice(1)) : 1) });
        const schema = r.json(parsed.doc.value, ['schema']);
        if (isJsonObject(parsed.doc.value)) schemas.push({ ...identity, schema, sha256: digestJson(schema) });
      }
    } else if (file.kind === 'asset') {
      const parts = splitFrontmatter(file.text);
      if (parts === undefined) {
        problems.push({
          file: file.rel,
          line: 1,
          code: ProblemCode.FrontmatterMissing,
          message: 'a Markdown asset opens with a --- YAML frontmatter block',
        });
      } else {
        const parsed = parseYaml(parts.frontmatter, parts.frontmatterLine - 1);
        if (!parsed.ok) syntax(file, parsed.errors);
        else {
          sources.set(key, { file: file.rel, lineOf: assetLines(parsed.doc, parts.bodyLine) });
          const asset = readAssetSource(r, parsed.doc.value, file.assetKind as AssetKind, identity, parts.body);
          if (asset !== undefined) assets.push(asset);
        }
      }
    } else {
      const parsed = parseYaml(file.text);
      if (!parsed.ok) syntax(file, parsed.errors);
      else {
        sources.set(key, { file: file.rel, lineOf: identityLines(parsed.doc) });
        if (file.kind === 'workflow') push(workflows, readWorkflow(r, parsed.doc.value, identity));
        else push(validators, readValidator(r, parsed.doc.value, identity));
      }
    }
    if (problems.length + issues.length > before) unloaded.add(key);
  }

  const locate: Locator = (site) => {
    const source = sources.get(site.entry);
    return source === undefined ? { file: site.entry, line: 1 } : { file: source.file, line: source.lineOf(site.path) };
  };
  for (const issue of issues) problems.push({ ...locate(issue.site), code: issue.code, message: issue.message });
  return { content: { ...header, workflows, assets, validators, schemas }, problems, locate, unloaded, headerLoaded };
}

function push<T>(list: T[], value: T | undefined): void {
  if (value !== undefined) list.push(value);
}

/** id/version/kind come from the file name: line 1 unless the file repeats them. */
function identityLines(doc: ParsedYaml): (path: Path) => number {
  return (path) => {
    const head = path[0];
    if (path.length === 1 && (head === 'id' || head === 'version' || head === 'kind')) {
      return isJsonObject(doc.value) && Object.hasOwn(doc.value, head) ? doc.lineOf(path) : 1;
    }
    return doc.lineOf(path);
  };
}

/** Asset paths: `adapter.*` lives at the top of the frontmatter, `content` is the body. */
function assetLines(doc: ParsedYaml, bodyLine: number): (path: Path) => number {
  const lines = identityLines(doc);
  return (path) => {
    if (path[0] === 'content') return bodyLine;
    return lines(path[0] === 'adapter' ? path.slice(1) : path);
  };
}
