/**
 * The console's HTTP listener on src/http: the Host/Origin rule of every listener (DNS rebinding, other origins'
 * pages), the security headers on every answer, the health pair (`GET /healthz`, `GET /readyz`, no credential:
 * src/http/health.ts), the same-origin proof of every request that changes something (same-origin.ts), the sign-in
 * exchange, the static page and the JSON API (src/http's route table). Client time limits and malformed requests are
 * handled as on every Rimthan listener. Nothing is logged per request.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RimthanError } from '../../core/index.js';
import {
  ALWAYS_READY,
  announcesBody,
  answerHealth,
  listen,
  matchRoute,
  readBody,
  redirect,
  RequestGuard,
  sendError,
  sendMiss,
} from '../../http/index.js';
import type { ReadinessProbe } from '../../http/index.js';
import { LOGIN_FAILED } from './assets.js';
import type { Asset } from './assets.js';
import type { ConsoleAuth, SignedIn } from './auth.js';
import type { Route } from './router.js';
import { NOT_SAME_ORIGIN, provesSameOrigin } from './same-origin.js';
import { applySecurityHeaders } from './security-headers.js';

export interface ConsoleServerOptions {
  readonly host: string;
  readonly port: number;
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly auth: ConsoleAuth;
  readonly assets: ReadonlyMap<string, Asset>;
  readonly routes: readonly Route[];
  /** Told about unexpected faults; the client only sees `internal`. */
  readonly onFault?: (error: unknown) => void;
  /** What `GET /readyz` says; default: ready once listening. */
  readonly readiness?: ReadinessProbe;
}

export interface ConsoleServer {
  /** `http://host:port` (no trailing slash). */
  readonly origin: string;
  readonly server: Server;
  close(): Promise<void>;
}

const LOGIN_MAX_BYTES = 8192;

const API_MISSES = { notFound: 'no such endpoint', methodNotAllowed: () => 'method not allowed' } as const;

function serveAsset(res: ServerResponse, asset: Asset, method: string): void {
  res.writeHead(200, { 'Content-Type': asset.type, 'Content-Length': String(asset.bytes.byteLength) });
  res.end(method === 'HEAD' ? undefined : asset.bytes);
}

/**
 * The answer to a sign-in: the cookie, and the page itself with the sign-in's CSRF token in a `<meta>` element, which
 * the page moves to its origin's storage (and the address back to `/`). Only this answer carries the token.
 */
function signedIn(res: ServerResponse, page: Asset, signIn: SignedIn): void {
  const html = page.bytes
    .toString('utf8')
    .replace('</head>', `  <meta name="rimthan-csrf" content="${signIn.csrf}" />\n  </head>`);
  res.writeHead(200, {
    'Content-Type': page.type,
    'Content-Length': String(Buffer.byteLength(html)),
    'Set-Cookie': signIn.cookie,
  });
  res.end(html);
}

/** `POST /auth` from the login form (`token=...`, form-encoded): a cookie and the page, or back to the form. */
async function login(req: IncomingMessage, res: ServerResponse, auth: ConsoleAuth, page: Asset): Promise<void> {
  const body = await readBody(req, LOGIN_MAX_BYTES);
  if (body.kind === 'gone') return;
  if (body.kind === 'too_large') return sendError(res, { code: 'too_large', message: 'the sign-in form is too large' });
  const token = new URLSearchParams(body.bytes.toString('utf8')).get('token')?.trim() ?? '';
  const signIn = token === '' ? undefined : await auth.login(token);
  if (signIn === undefined) return redirect(res, '/login?failed=1');
  signedIn(res, page, signIn);
}

/** Refuses a state change that did not prove it comes from the console's own page (the body is left unread). */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  sendError(res, NOT_SAME_ORIGIN);
}

export function consoleListener(opts: ConsoleServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const guard = new RequestGuard({
    listenHost: opts.host,
    allowedHosts: opts.allowedHosts,
    allowedOrigins: opts.allowedOrigins,
  });
  const auth = opts.auth;
  const index = opts.assets.get('/');
  if (index === undefined) throw new RimthanError('console_assets_missing', "the console's page is missing");
  const page: Asset = index;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    applySecurityHeaders(res);
    if (!guard.hostAllowed(req)) return sendError(res, { code: 'forbidden', message: 'host not allowed' });
    if (!guard.originAllowed(req)) return sendError(res, { code: 'forbidden', message: 'origin not allowed' });
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://console.invalid');
    } catch {
      return sendError(res, { code: 'not_found', message: 'not found' });
    }
    const method = req.method ?? 'GET';
    const pathname = url.pathname;
    if (answerHealth(req, res, pathname, opts.readiness ?? ALWAYS_READY)) return;

    if (pathname === '/auth') {
      if (method === 'GET' && auth.mode === 'link') {
        const signIn = auth.exchangeLinkToken(url.searchParams.get('token') ?? '');
        return signIn === undefined ? redirect(res, '/?link=used') : signedIn(res, page, signIn);
      }
      if (method === 'POST' && auth.mode === 'tokens') {
        // Signing in is a state change too: another origin's page must not sign the operator in as someone else.
        if (!provesSameOrigin(req, 'fetch-metadata', undefined)) return refuse(req, res);
        return login(req, res, auth, page);
      }
      return sendError(res, { code: 'method_not_allowed', message: 'method not allowed' });
    }
    if (pathname === '/logout' && method === 'POST') {
      if (!provesSameOrigin(req, 'either', auth.csrfOf(req))) return refuse(req, res);
      req.resume();
      return redirect(res, '/', auth.logout(req));
    }

    if (!pathname.startsWith('/api/')) {
      const failed = pathname === '/login' && url.searchParams.get('failed') === '1';
      const asset = opts.assets.get(failed ? LOGIN_FAILED : pathname);
      if (asset === undefined || (pathname === '/login' && auth.mode !== 'tokens')) {
        return sendError(res, { code: 'not_found', message: 'not found' });
      }
      if (method !== 'GET' && method !== 'HEAD') {
        return sendError(res, { code: 'method_not_allowed', message: 'method not allowed' }, { Allow: 'GET, HEAD' });
      }
      return serveAsset(res, asset, method);
    }

    const who = await auth.principalOf(req);
    if (who === undefined) {
      req.resume();
      return auth.mode === 'link'
        ? sendError(res, {
            code: 'unauthorized',
            reason: 'link',
            message: 'sign in with the link rimthan console printed',
          })
        : sendError(res, { code: 'unauthorized', reason: 'login', message: 'sign in with your token' });
    }
    // A cookie rides along on any request the browser sends: a state change must also prove it comes from our page.
    if (method !== 'GET' && who.via === 'cookie' && !provesSameOrigin(req, 'csrf-token', auth.csrfOf(req))) {
      return refuse(req, res);
    }
    const match = matchRoute(opts.routes, method, pathname);
    if (match.kind !== 'found') return sendMiss(req, res, match, API_MISSES);
    const { route, params } = match;
    // A reading endpoint's body cap is zero: whatever it carries is refused unread.
    if (route.method === 'GET' && announcesBody(req)) {
      req.resume();
      return sendError(res, { code: 'too_large', message: 'a GET request takes no body' }, { Connection: 'close' });
    }
    await route.handle({ req, res, url, params, principal: who.principal });
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      opts.onFault?.(error);
      if (res.headersSent) res.destroy();
      else sendError(res, { code: 'internal', message: 'internal error' });
    });
  };
}

/** Starts listening; resolves once the port is bound. */
export async function startConsoleServer(opts: ConsoleServerOptions): Promise<ConsoleServer> {
  const listening = await listen(consoleListener(opts), { host: opts.host, port: opts.port });
  return { origin: listening.origin, server: listening.server, close: () => listening.close() };
}
