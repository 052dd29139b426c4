/**
 * The pinned coding-agent hosts (devDependencies, exact versions): where their native executables are and which
 * version each is. npm installs each host's executable in a per-platform package; we run that executable directly,
 * so nothing depends on the wrapper package's install script (it is not allowed to run: package.json allowScripts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface HostBinary {
  readonly host: 'claude-code' | 'codex';
  readonly version: string;
  readonly path: string;
}

function packageDir(name: string): string | undefined {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

function versionOf(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Claude Code's native executable from `@anthropic-ai/claude-code-<platform>`, or undefined when not installed. */
export function claudeCodeBinary(): HostBinary | undefined {
  const wrapper = packageDir('@anthropic-ai/claude-code');
  if (wrapper === undefined) return undefined;
  const platform = `${process.platform}-${process.arch}`;
  const req = createRequire(join(wrapper, 'package.json'));
  let native: string | undefined;
  try {
    native = dirname(req.resolve(`@anthropic-ai/claude-code-${platform}/package.json`));
  } catch {
    return undefined;
  }
  const path = join(native, process.platform === 'win32' ? 'claude.exe' : 'claude');
  return existsSync(path) ? { host: 'claude-code', version: versionOf(wrapper), path } : undefined;
}

/** Codex's native executable from `@openai/codex`'s platform package, or undefined when not installed. */
export function codexBinary(): HostBinary | undefined {
  const wrapper = packageDir('@openai/codex');
  if (wrapper === undefined) return undefined;
  const triple =
    process.platform === 'linux'
      ? `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-unknown-linux-musl`
      : process.platform === 'darwin'
        ? `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-apple-darwin`
        : undefined;
  if (triple === undefined) return undefined;
  const platformPackage = `@openai/codex-${process.platform}-${process.arch}`;
  const req = createRequire(join(wrapper, 'package.json'));
  let native: string;
  try {
    native = dirname(req.resolve(`${platformPackage}/package.json`));
  } catch {
    return undefined;
  }
  const path = join(native, 'vendor', triple, 'bin', 'codex');
  return existsSync(path) ? { host: 'codex', version: versionOf(wrapper), path } : undefined;
}
