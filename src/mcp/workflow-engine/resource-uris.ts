/**
 * The public resource URIs of the workflow-engine profile as this profile parses them (guided/uris.ts builds them;
 * the catalogue test reads every listed URI back through this parser). Shapes (exact, from the spec):
 *   rimthan://registry/{release}/summary | /manifest
 *   rimthan://registry/{release}/workflows/{workflow_id}/{version}/definition
 *   rimthan://registry/{release}/workflows/{workflow_id}/{version}/steps/{step_id}
 *   rimthan://registry/{release}/assets/{kind}/{asset_id}/{version}/content
 *   rimthan://registry/{release}/validators/{validator_id}/{version}
 *   rimthan://registry/{release}/schemas/{schema_id}/{version}
 *   rimthan://bootstrap/agent-entrypoint
 */
import type { ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/server';
import { privateCacheMeta } from '../server/wire.js';

export const BOOTSTRAP_URI = 'rimthan://bootstrap/agent-entrypoint';
const REGISTRY_PREFIX = 'rimthan://registry/';
/** Longest URI a read is answered for (every catalogue URI is far shorter). */
export const MAX_URI_LENGTH = 1024;

/** What a registry URI points at inside one release. */
export type RegistryPath =
  | { readonly kind: 'summary' }
  | { readonly kind: 'manifest' }
  | { readonly kind: 'workflow'; readonly workflowId: string; readonly version: string }
  | { readonly kind: 'step'; readonly workflowId: string; readonly version: string; readonly stepId: string }
  | { readonly kind: 'asset'; readonly assetKind: string; readonly assetId: string; readonly version: string }
  | { readonly kind: 'validator'; readonly validatorId: string; readonly version: string }
  | { readonly kind: 'schema'; readonly schemaId: string; readonly version: string };

/** A parsed registry URI: the release it names and the entry inside it. */
export interface RegistryUri {
  readonly release: string;
  readonly path: RegistryPath;
}

/** One URI segment: an identifier, a semantic version or a release name. No dots-only, no slashes, no escapes. */
const SEGMENT = /^[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,127})$/;

/** True when `value` is safe to use as one path segment (and as a release name handed to a release store). */
export function isSafeSegment(value: string): boolean {
  return SEGMENT.test(value) && !value.includes('..');
}

function matchPath(s: readonly string[]): RegistryPath | undefined {
  const [a, b, c, d, e] = s;
  if (s.length === 1 && a === 'summary') return { kind: 'summary' };
  if (s.length === 1 && a === 'manifest') return { kind: 'manifest' };
  if (a === 'workflows' && b !== undefined && c !== undefined) {
    if (s.length === 4 && d === 'definition') return { kind: 'workflow', workflowId: b, version: c };
    if (s.length === 5 && d === 'steps' && e !== undefined)
      return { kind: 'step', workflowId: b, version: c, stepId: e };
  }
  if (a === 'assets' && s.length === 5 && b !== undefined && c !== undefined && d !== undefined && e === 'content') {
    return { kind: 'asset', assetKind: b, assetId: c, version: d };
  }
  if (a === 'validators' && s.length === 3 && b !== undefined && c !== undefined) {
    return { kind: 'validator', validatorId: b, version: c };
  }
  if (a === 'schemas' && s.length === 3 && b !== undefined && c !== undefined)
    return { kind: 'schema', schemaId: b, version: c };
  return undefined;
}

/** Parses a registry URI; `undefined` for anything that is not exactly one of the shapes above. */
export function parseRegistryUri(uri: string): RegistryUri | undefined {
  if (uri.length > MAX_URI_LENGTH || !uri.startsWith(REGISTRY_PREFIX)) return undefined;
  const segments = uri.slice(REGISTRY_PREFIX.length).split('/');
  const [release, ...rest] = segments;
  if (release === undefined || !segments.every(isSafeSegment)) return undefined;
  const path = matchPath(rest);
  return path === undefined ? undefined : { release, path };
}

/** The five resource templates of the workflow-engine profile. */
export function resourceTemplates(): ResourceTemplate[] {
  const t = (name: string, title: string, uriTemplate: string, mimeType: string): ResourceTemplate => ({
    name,
    title,
    uriTemplate: `${REGISTRY_PREFIX}{release}/${uriTemplate}`,
    mimeType,
    _meta: privateCacheMeta(),
  });
  return [
    t('workflow-definition', 'Workflow definition', 'workflows/{workflow_id}/{version}/definition', 'application/json'),
    t('workflow-step', 'Workflow step', 'workflows/{workflow_id}/{version}/steps/{step_id}', 'application/json'),
    t(
      'workflow-asset-content',
      'Workflow asset content',
      'assets/{kind}/{asset_id}/{version}/content',
      'text/markdown',
    ),
    t('validator-definition', 'Validator definition', 'validators/{validator_id}/{version}', 'application/json'),
    t('workflow-versioned-schema', 'Versioned JSON Schema', 'schemas/{schema_id}/{version}', 'application/schema+json'),
  ];
}
