/**
 * A real `rimthan serve --transport http` configured as an OAuth 2.1 resource server, and a stand-in authorization
 * server (its metadata document only) at the issuer, so a host's OAuth discovery can be followed up to the point
 * where a person would sign in in a browser: the host reads the endpoint's RFC 9728 metadata, then asks the issuer
 * for its metadata, and every request the issuer gets is recorded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { jwksOf, signingKey } from '../../../identity/jwt-support.js';
import { spawnServe } from '../../../support/serve-process.js';
import type { ServeProcess } from '../../../support/serve-process.js';

export interface OAuthEndpoint {
  /** The MCP endpoint (also the token audience and the RFC 9728 resource). */
  readonly url: string;
  /** Request paths the stand-in authorization server received. */
  readonly issuerRequests: () => readonly string[];
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts the stand-in issuer and `rimthan serve` trusting it; state goes under `work`. */
export async function startOAuthEndpoint(work: string): Promise<OAuthEndpoint> {
  const requests: string[] = [];
  const issuer = createServer((req, res) => {
    requests.push(`${req.method ?? ''} ${req.url ?? ''}`);
    const base = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
    if ((req.url ?? '').includes('/.well-known/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          issuer: `${base}/realm`,
          authorization_endpoint: `${base}/realm/authorize`,
          token_endpoint: `${base}/realm/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
  const issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}/realm`;
  const closeIssuer = (): Promise<void> => {
    issuer.closeAllConnections();
    return new Promise<void>((resolve) => issuer.close(() => resolve()));
  };
  let serve: ServeProcess;
  let url: string;
  try {
    mkdirSync(work, { recursive: true });
    const jwks = join(work, 'jwks.json');
    writeFileSync(jwks, JSON.stringify(jwksOf(await signingKey('rollout-test'))));
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    serve = await spawnServe(
      ['--transport', 'http', '--port', String(port), '--oauth-issuer', issuerUrl, '--oauth-audience', url],
      { HOME: work, XDG_STATE_HOME: join(work, 'state'), RIMTHAN_OAUTH_JWKS: jwks },
    );
  } catch (error) {
    await closeIssuer();
    throw error;
  }
  return {
    url,
    issuerRequests: () => [...requests],
    async stop() {
      await serve.stop();
      await closeIssuer();
    },
  };
}
