/** The unauthenticated health requests a proxy sends (`/healthz`, `/readyz`), over node:http so the Host is ours. */
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

export interface Health {
  readonly status: number;
  readonly body: unknown;
  readonly headers: IncomingHttpHeaders;
}

/** One unauthenticated health request, as a proxy sends it (no credential; the Host it uses, when given). */
export function health(origin: string, path: string, host?: string, method = 'GET'): Promise<Health> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, {
      method,
      headers: host === undefined ? {} : { Host: host },
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text === '' ? undefined : JSON.parse(text),
          headers: res.headers,
        }),
      );
    });
    req.end();
  });
}
