/**
 * Renders a host asset in the file format its harness reads when delivered project-locally:
 * Claude Code and Codex skills → SKILL.md (YAML frontmatter `name`, `description`); Claude Code subagents →
 * `.claude/agents/<id>.md` (frontmatter `name`, `description`, `tools`); Claude Code prompts → `.claude/commands/<id>.md`;
 * Codex subagents → `.codex/agents/<id>.toml` (`name`, `description`, `sandbox_mode = "read-only"` for a read-only
 * subagent, `developer_instructions`). Other harness/kind pairs have no project-local format.
 */
import { createRequire } from 'node:module';
import type { stringify } from 'yaml';
import type { AssetEntry, Harness, HostAssetKind } from '../../registry/model/index.js';
import { tomlBasicString, tomlMultilineString } from './toml.js';

const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

const requireModule = createRequire(import.meta.url);
let yamlStringify: typeof stringify | undefined;

function markdownWithFrontmatter(frontmatter: Record<string, string>, body: string): string {
  // The YAML library is loaded on the first render, not when the guided engine is loaded (a server start).
  yamlStringify ??= (requireModule('yaml') as { stringify: typeof stringify }).stringify;
  const yaml = yamlStringify(frontmatter, { lineWidth: 0 });
  return `---\n${yaml}---\n\n${withFinalNewline(body)}`;
}

/** True when the asset's id and description fit the skill/agent frontmatter limits. */
function fitsFrontmatter(asset: AssetEntry): boolean {
  const description = asset.description.trim();
  return (
    asset.id.length <= MAX_NAME &&
    SKILL_NAME.test(asset.id) &&
    description.length > 0 &&
    [...asset.description].length <= MAX_DESCRIPTION // code points, as the registry counts them
  );
}

/**
 * The YAML frontmatter of a skill asset's SKILL.md, as the object it is written from (and parses back to): `name` =
 * asset id, `description`. Undefined when the asset does not fit the frontmatter limits.
 */
export function skillFrontmatter(asset: AssetEntry): Readonly<{ name: string; description: string }> | undefined {
  if (!fitsFrontmatter(asset)) return undefined;
  return Object.freeze({ name: asset.id, description: asset.description });
}

/**
 * The harness-neutral SKILL.md of a skill asset ({@link skillFrontmatter}, then the content): the file Claude Code
 * and Codex read project-locally, and the one a Skills-capable host loads over MCP. Undefined when the asset does not
 * fit the frontmatter limits.
 */
export function renderSkillFile(asset: AssetEntry): string | undefined {
  const frontmatter = skillFrontmatter(asset);
  if (frontmatter === undefined) return undefined;
  return markdownWithFrontmatter({ ...frontmatter }, asset.content);
}

/**
 * The host-format file content for project-local delivery of `asset` on `harness`, or undefined when that harness has
 * no project-local format for the kind (or the asset does not fit its frontmatter limits).
 */
export function renderHostAsset(harness: Harness, kind: HostAssetKind, asset: AssetEntry): string | undefined {
  if (!fitsFrontmatter(asset)) return undefined;
  const name = asset.id;
  const description = asset.description;
  if (kind === 'skill' && (harness === 'claude-code' || harness === 'codex')) return renderSkillFile(asset);
  if (harness === 'claude-code' && kind === 'subagent') {
    const tools = asset.tools ?? [];
    const frontmatter: Record<string, string> = { name, description };
    if (tools.length > 0) frontmatter['tools'] = tools.join(', ');
    return markdownWithFrontmatter(frontmatter, asset.content);
  }
  if (harness === 'claude-code' && kind === 'prompt') {
    return markdownWithFrontmatter({ description }, asset.content);
  }
  if (harness === 'codex' && kind === 'subagent') {
    return [
      `name = ${tomlBasicString(name)}`,
      `description = ${tomlBasicString(description)}`,
      ...(asset.read_only === true ? ['sandbox_mode = "read-only"'] : []),
      `developer_instructions = ${tomlMultilineString(asset.content)}`,
      '',
    ].join('\n');
  }
  return undefined;
}
