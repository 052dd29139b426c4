/**
 * RFC 9728 OAuth 2.0 Protected Resource Metadata: the document an MCP client fetches (from the `resource_metadata`
 * URL of a 401's `WWW-Authenticate`, or the well-known path) to learn which authorization server issues tokens for
 * this resource. Built once at start from the configured resource URL and issuer; served verbatim.
 */
import { RimthanError } from '../core/index.js';

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

export interface ProtectedResourceOptions {
  /** The resource identifier: the public https URL of the MCP endpoint (as clients reach it through the proxy). */
  readonly resource: string;
  /** The authorization servers' issuer identifiers. */
  readonly authorizationServers: readonly string[];
  /** Scopes a client may ask for (optional). */
  readonly scopesSupported?: readonly string[];
  /** What the messages call the resource setting (e.g. `--oauth-resource`). */
  readonly setting?: string;
}

export interface ProtectedResourceMetadata {
  /** The URL of the metadata document, for `WWW-Authenticate: ... resource_metadata="..."`. */
  readonly url: string;
  /** The request paths that serve it: the RFC 9728 §3.1 path (well-known + resource path) and the bare well-known. */
  readonly paths: readonly string[];
  /** The JSON document. */
  readonly body: string;
}

/** Builds the metadata; throws `invalid_config` naming the setting for a resource that is not an absolute https URL. */
export function protectedResourceMetadata(opts: ProtectedResourceOptions): ProtectedResourceMetadata {
  const setting = opts.setting ?? '--oauth-resource';
  let url: URL;
  try {
    url = new URL(opts.resource);
  } catch {
    throw new RimthanError('invalid_config', `${setting} must be an absolute URL (the public URL of the MCP endpoint)`);
  }
  const loopback = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new RimthanError('invalid_config', `${setting} must be an https:// URL (http:// only on a loopback host)`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new RimthanError('invalid_config', `${setting} must have no query, fragment or credentials`);
  }
  const resourcePath = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const suffixed = `${PROTECTED_RESOURCE_WELL_KNOWN}${resourcePath}`;
  const document = {
    resource: opts.resource,
    authorization_servers: [...opts.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(opts.scopesSupported === undefined || opts.scopesSupported.length === 0
      ? {}
      : { scopes_supported: [...opts.scopesSupported] }),
    resource_name: 'Rimthan',
  };
  return {
    url: `${url.origin}${suffixed}`,
    paths: [...new Set([suffixed, PROTECTED_RESOURCE_WELL_KNOWN])],
    body: JSON.stringify(document),
  };
}
