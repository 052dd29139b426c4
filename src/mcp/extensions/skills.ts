/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640, specified against MCP 2026-07-28) for the
 * workflow-engine profile: `skills/list` (the active release's skill entries, one page, no cursor issued) and
 * `skills/get` (any served release's entry by the URI of its SKILL.md; unknown: -32602 "unknown skill"), each a
 * cacheable result (`ttlMs`/`cacheScope` on 2026 traffic, the private-cache marker on 2025 traffic, server.ts
 * cacheFields). The files themselves are read with plain `resources/read` (workflow-engine/workflow-resources.ts). Declared with no
 * optional features (no `directoryRead`); the profile also declares `resources`, as the extension requires.
 *
 * Params are closed (server/closed-params.ts): skills/list takes only `cursor`, skills/get only `uri`, both bounded strings;
 * anything else is -32602 with a fixed message that never echoes the request.
 */
import { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/server/ext/skills';
import type { ServerContext } from '@modelcontextprotocol/server';
import { boundedString, closedParams } from '../server/closed-params.js';
import type { ReleaseSkills } from '../workflow-engine/release-skills.js';
import { MAX_URI_LENGTH } from '../workflow-engine/resource-uris.js';
import type { ServerExtension } from '../server/profile.js';
import { cacheFields, guardedHandler } from '../server/server.js';
import type { FaultReporter } from '../server/tool-call.js';
import { JsonRpcFault, LISTING_TTL_MS, RpcCode } from '../server/wire.js';

export { SKILLS_EXTENSION_ID };
/** Longest `cursor` skills/list accepts (we issue none, so any cursor is refused as invalid). */
const MAX_CURSOR_CHARS = 256;

export interface SkillsExtensionOptions {
  readonly skills: ReleaseSkills;
  readonly onFault?: FaultReporter;
}

/** The extension: its capability, and skills/list + skills/get over the profile's release skills. */
export function createSkillsExtension(opts: SkillsExtensionOptions): ServerExtension {
  const faults = opts.onFault === undefined ? {} : { onFault: opts.onFault };
  const { skills } = opts;
  return {
    capabilities: { extensions: { [SKILLS_EXTENSION_ID]: {} } },
    register(server) {
      server.setRequestHandler(
        'skills/list',
        { params: closedParams({}, { cursor: boundedString(MAX_CURSOR_CHARS) }) },
        guardedHandler(faults, 'skills/list', async (params: Record<string, unknown>, ctx: ServerContext) => {
          if (params['cursor'] !== undefined) throw new JsonRpcFault(RpcCode.InvalidParams, 'invalid cursor');
          return cacheFields(ctx, { skills: [...(await skills.list())] }, LISTING_TTL_MS.release);
        }) as never,
      );
      server.setRequestHandler(
        'skills/get',
        { params: closedParams({ uri: boundedString(MAX_URI_LENGTH) }) },
        guardedHandler(faults, 'skills/get', async (params: Record<string, unknown>, ctx: ServerContext) => {
          const skill = await skills.get(params['uri'] as string);
          if (skill === undefined) throw new JsonRpcFault(RpcCode.InvalidParams, 'unknown skill');
          return cacheFields(ctx, { skill }, LISTING_TTL_MS.release);
        }) as never,
      );
    },
  };
}
