/**
 * Resources and the prompt of the workflow-engine profile. The list is the active release's catalogue plus the
 * bootstrap entrypoint; a read of rimthan://registry/{release}/... is served from that release, pinned if it is not
 * the active one, so a checkpoint or link keeps reading its immutable release after the active channel moves. A read
 * of skill://rimthan/{release}/... is a skill file of that release (release-skills.ts), pinned the same way; skill
 * files are not in the list or the templates (the Skills extension's skills/list is how they are found).
 */
import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { isRimthanError } from '../../core/index.js';
import type { Release } from '../../registry/model/index.js';
import type { PromptProvider, ResourceProvider } from '../server/profile.js';
import type { ReleaseLookup } from './release-scopes.js';
import type { ReleaseSkills } from './release-skills.js';
import type { CatalogueCache, CatalogueEntry } from '../../guided/index.js';
import { BOOTSTRAP_URI, MAX_URI_LENGTH, parseRegistryUri, resourceTemplates } from './resource-uris.js';
import { JsonRpcFault, privateCacheMeta, RpcCode } from '../server/wire.js';

/** The one prompt of the profile. */
export const START_WORKFLOW_PROMPT = 'rimthan.start_workflow';

function listed(entry: CatalogueEntry): Resource {
  const resource: Resource = {
    uri: entry.uri,
    name: entry.name,
    title: entry.title,
    mimeType: entry.mimeType,
    _meta: privateCacheMeta(),
  };
  if (entry.description !== undefined) resource.description = entry.description;
  return resource;
}

function notFound(uri: string): JsonRpcFault {
  return new JsonRpcFault(RpcCode.ResourceNotFound, 'resource not found', { uri });
}

function contents(uri: string, mimeType: string, text: string): ReadResourceResult {
  return { contents: [{ uri, mimeType, text, _meta: privateCacheMeta() }], _meta: privateCacheMeta() };
}

const SKILL_SCHEME = 'skill://';

/** The resource provider over the given releases, catalogues, skills and bootstrap paragraph. */
export function workflowResources(
  releases: ReleaseLookup,
  catalogues: CatalogueCache,
  skills: ReleaseSkills,
  bootstrap: string,
): ResourceProvider {
  const bootstrapResource: Resource = {
    uri: BOOTSTRAP_URI,
    name: 'agent-entrypoint',
    title: 'Rimthan agent entrypoint',
    description: 'Host-neutral bootstrap paragraph for a participant harness.',
    mimeType: 'text/markdown',
    _meta: privateCacheMeta(),
  };
  return {
    async list() {
      const release = await releases.activeRelease();
      return [...catalogues.of(release).entries.map(listed), bootstrapResource];
    },
    templates: resourceTemplates,
    async read(uri) {
      if (uri === BOOTSTRAP_URI) return contents(uri, 'text/markdown', bootstrap);
      // Not echoed: an over-long URI would only make the error as large as the request.
      if (uri.length > MAX_URI_LENGTH) throw new JsonRpcFault(RpcCode.InvalidParams, 'resource URI is too long');
      if (uri.startsWith(SKILL_SCHEME)) {
        const file = await skills.file(uri);
        if (file === undefined) throw notFound(uri);
        return contents(uri, file.mimeType, file.text);
      }
      const parsed = parseRegistryUri(uri);
      if (parsed === undefined) throw notFound(uri);
      let release: Release | undefined;
      try {
        release = await releases.namedRelease(parsed.release);
      } catch (error) {
        if (isRimthanError(error)) throw notFound(uri); // an unreadable pinned release is not served
        throw error;
      }
      const entry = release === undefined ? undefined : catalogues.of(release).get(uri);
      if (entry === undefined) throw notFound(uri);
      return contents(uri, entry.mimeType, entry.text);
    },
  };
}

/** The prompt provider: one prompt whose text is the bootstrap paragraph. */
export function workflowPrompts(bootstrap: string): PromptProvider {
  const prompt: Prompt = {
    name: START_WORKFLOW_PROMPT,
    title: 'Start a Rimthan workflow',
    description:
      'Bootstrap instructions for a harness: connect, verify the four workflow tools, and start the research workflow.',
    _meta: privateCacheMeta(),
  };
  return {
    list: () => [prompt],
    get(name): GetPromptResult {
      if (name !== START_WORKFLOW_PROMPT) throw new JsonRpcFault(RpcCode.InvalidParams, 'unknown prompt');
      return {
        description: prompt.description,
        messages: [{ role: 'user', content: { type: 'text', text: bootstrap } }],
        _meta: privateCacheMeta(),
      };
    },
  };
}
