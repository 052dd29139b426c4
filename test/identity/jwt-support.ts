/** Test plumbing for OAuth: key pairs, a JWKS served from a local HTTP server, and signed access tokens. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK, JWTPayload } from 'jose';

export const ISSUER = 'https://idp.example.test/realm';
export const AUDIENCE = 'https://rimthan.example.test/mcp';

export interface SigningKey {
  readonly kid: string;
  readonly alg: 'ES256' | 'RS256';
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

export async function signingKey(kid: string, alg: 'ES256' | 'RS256' = 'ES256'): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicJwk };
}

export function jwksOf(...keys: readonly SigningKey[]): { keys: JWK[] } {
  return { keys: keys.map((k) => k.publicJwk) };
}

export interface TokenClaims {
  readonly sub?: string;
  readonly iss?: string;
  readonly aud?: string | string[];
  /** Seconds from now; default 300. */
  readonly expiresIn?: number;
  /** Seconds from now (negative: in the past). */
  readonly notBefore?: number;
  readonly scope?: string;
  readonly extra?: JWTPayload;
}

/** A signed access token (the defaults make a valid one for ISSUER/AUDIENCE). */
export async function accessToken(key: SigningKey, claims: TokenClaims = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...(claims.scope === undefined ? {} : { scope: claims.scope }), ...claims.extra })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(claims.iss ?? ISSUER)
    .setAudience(claims.aud ?? AUDIENCE)
    .setSubject(claims.sub ?? 'user-1')
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.expiresIn ?? 300));
  if (claims.notBefore !== undefined) jwt.setNotBefore(now + claims.notBefore);
  return jwt.sign(key.privateKey);
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsecured token (`alg: none`) with the given claims, and a junk signature segment. */
export function unsecuredToken(kid: string, payload: JWTPayload): string {
  return `${b64({ alg: 'none', kid })}.${b64(payload)}.${Buffer.from('x').toString('base64url')}`;
}

/** A JWKS endpoint whose key set can be replaced; counts the fetches. */
export interface JwksServer {
  readonly url: string;
  readonly fetches: () => number;
  set(jwks: unknown): void;
  close(): Promise<void>;
}

export async function serveJwks(initial: unknown): Promise<JwksServer> {
  let body = JSON.stringify(initial);
  let fetches = 0;
  const server = createServer((req, res) => {
    fetches += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    fetches: () => fetches,
    set: (jwks) => {
      body = JSON.stringify(jwks);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
