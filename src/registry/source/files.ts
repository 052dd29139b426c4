/**
 * Reads an authoring source folder: classifies every file by its place in the layout, refuses what does not belong
 * (closed format), symbolic links and oversized files, and decodes UTF-8 strictly.
 */
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AssetKind } from '../model/release.js';
import { ProblemCode, cmp, quoted } from '../problems.js';
import type { Problem } from '../problems.js';

/** Largest single source file. */
export const MAX_SOURCE_FILE_BYTES = 4 * 1024 * 1024;
/** Most files a source folder may hold. */
export const MAX_SOURCE_FILES = 5000;

export type SourceFileKind = 'registry' | 'workflow' | 'validator' | 'schema' | 'asset';

export interface SourceFile {
  /** Path relative to the source folder, POSIX separators. */
  readonly rel: string;
  readonly name: string;
  readonly kind: SourceFileKind;
  readonly assetKind?: AssetKind;
  readonly text: string;
}

const FOLDERS: Readonly<Record<string, { kind: SourceFileKind; ext: string }>> = {
  workflows: { kind: 'workflow', ext: '.yaml' },
  validators: { kind: 'validator', ext: '.yaml' },
  schemas: { kind: 'schema', ext: '.json' },
};
const ASSET_KINDS: readonly string[] = Object.values(AssetKind);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Lists and reads the source files under `dir`, with a problem for each file that does not fit the layout. */
export function readSourceFiles(dir: string): { files: SourceFile[]; problems: Problem[] } {
  const files: SourceFile[] = [];
  const problems: Problem[] = [];
  const unexpected = (rel: string, why: string): void => {
    problems.push({ file: rel, line: 1, code: ProblemCode.UnexpectedFile, message: why });
  };
  const read = (rel: string, name: string, kind: SourceFileKind, assetKind?: AssetKind): void => {
    if (files.length >= MAX_SOURCE_FILES)
      return unexpected(rel, `the source holds more than ${MAX_SOURCE_FILES} files`);
    const text = readText(join(dir, rel), rel, problems);
    if (text !== undefined) files.push({ rel, name, kind, text, ...(assetKind ? { assetKind } : {}) });
  };

  const root = listDir(dir);
  if (root === undefined || !root.some((e) => e.name === 'registry.yaml' && e.file)) {
    problems.push({
      file: 'registry.yaml',
      line: 1,
      code: ProblemCode.SourceMissing,
      message: 'the source folder has no registry.yaml',
    });
    if (root === undefined) return { files, problems };
  }
  for (const entry of root) {
    if (entry.name.startsWith('.')) continue;
    if (entry.name === 'registry.yaml' && entry.file) read('registry.yaml', entry.name, 'registry');
    else if (entry.name === 'README.md' && entry.file) continue;
    // Route scenarios (docs/authoring/scenarios.md) live beside the source and are never part of a build.
    else if (entry.name === 'scenarios' && entry.dir) continue;
    else if (entry.name === 'assets' && entry.dir) readAssets(dir, read, unexpected);
    else if (FOLDERS[entry.name] !== undefined && entry.dir) {
      const { kind, ext } = FOLDERS[entry.name] as { kind: SourceFileKind; ext: string };
      for (const child of listDir(join(dir, entry.name)) ?? []) {
        const rel = `${entry.name}/${child.name}`;
        if (child.name.startsWith('.')) continue;
        if (child.file && child.name.endsWith(ext)) read(rel, child.name, kind);
        else unexpected(rel, `only <id>@<version>${ext} files belong in ${entry.name}/`);
      }
    } else unexpected(entry.name, `${quoted(entry.name)} is not part of the source layout`);
  }
  return { files, problems };
}

function readAssets(
  dir: string,
  read: (rel: string, name: string, kind: SourceFileKind, assetKind?: AssetKind) => void,
  unexpected: (rel: string, why: string) => void,
): void {
  for (const kindDir of listDir(join(dir, 'assets')) ?? []) {
    if (kindDir.name.startsWith('.')) continue;
    if (!kindDir.dir || !ASSET_KINDS.includes(kindDir.name)) {
      unexpected(`assets/${kindDir.name}`, `assets/ holds one folder per asset kind (${ASSET_KINDS.join(', ')})`);
      continue;
    }
    for (const child of listDir(join(dir, 'assets', kindDir.name)) ?? []) {
      const rel = `assets/${kindDir.name}/${child.name}`;
      if (child.name.startsWith('.')) continue;
      if (child.file && child.name.endsWith('.md')) read(rel, child.name, 'asset', kindDir.name as AssetKind);
      else unexpected(rel, 'only <id>@<version>.md files belong in an asset folder');
    }
  }
}

interface DirEntry {
  readonly name: string;
  readonly file: boolean;
  readonly dir: boolean;
}

/** Directory entries sorted by name; symbolic links count as neither file nor folder. */
function listDir(path: string): DirEntry[] | undefined {
  try {
    return readdirSync(path, { withFileTypes: true })
      .map((d) => ({ name: d.name, file: d.isFile(), dir: d.isDirectory() }))
      .sort((a, b) => cmp(a.name, b.name));
  } catch {
    return undefined;
  }
}

function readText(path: string, rel: string, problems: Problem[]): string | undefined {
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > MAX_SOURCE_FILE_BYTES) {
      problems.push({
        file: rel,
        line: 1,
        code: ProblemCode.FileTooLarge,
        message: `file is larger than ${MAX_SOURCE_FILE_BYTES} bytes`,
      });
      return undefined;
    }
    const bytes = readFileSync(path);
    if (bytes.byteLength > MAX_SOURCE_FILE_BYTES) throw new Error('file grew while reading');
    return utf8.decode(bytes);
  } catch {
    problems.push({ file: rel, line: 1, code: ProblemCode.ReadFailed, message: 'file cannot be read as UTF-8 text' });
    return undefined;
  }
}
