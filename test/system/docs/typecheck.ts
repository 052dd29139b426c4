/**
 * Type-checks TypeScript taken from the docs, in memory, against the built package: `rimthan` and `rimthan/*` resolve
 * through package.json "exports" to the declarations of the compiled output folder the test runs from, so an example
 * that no longer matches the exported API fails here. Nothing is written to disk.
 */
import { dirname, join } from 'node:path';
import ts from 'typescript';

export interface VirtualFile {
  /** File name as the docs give it (`harness.ts`); other examples import it as `./harness.js`. */
  readonly name: string;
  readonly source: string;
}

/** `paths` that send each export of the package to its compiled declarations in `build`. */
function exportPaths(exportsMap: Record<string, unknown>, build: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(exportsMap)) {
    const types = (value as { types?: unknown }).types;
    if (typeof types !== 'string') continue;
    const specifier = key === '.' ? 'rimthan' : `rimthan/${key.slice(2)}`;
    paths[specifier] = [join(build, types.replace(/^\.\/dist\//, ''))];
  }
  return paths;
}

/**
 * The diagnostics of `files` compiled together as ES modules placed in `dir` (which must lie inside the package, so
 * `ai` and `@types/node` resolve from its node_modules), with the project's strict settings.
 */
export function typecheck(
  files: readonly VirtualFile[],
  dir: string,
  build: string,
  exportsMap: Record<string, unknown>,
): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    paths: exportPaths(exportsMap, build),
  };
  const virtual = new Map(files.map((f) => [join(dir, f.name), f.source]));
  const host = ts.createCompilerHost(options, true);
  const disk = ts.createCompilerHost(options, true);
  host.fileExists = (name) => virtual.has(name) || disk.fileExists(name);
  host.readFile = (name) => virtual.get(name) ?? disk.readFile(name);
  host.directoryExists = (name) => name === dir || ts.sys.directoryExists(name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = virtual.get(name);
    return text === undefined
      ? disk.getSourceFile(name, language, onError, create)
      : ts.createSourceFile(name, text, language, true);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (d.file === undefined || d.start === undefined) return message;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const where = virtual.has(d.file.fileName) ? d.file.fileName.slice(dirname(dir).length + 1) : d.file.fileName;
    return `${where}:${line + 1}: ${message}`;
  });
}
