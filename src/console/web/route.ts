/**
 * Hash routes: `#/releases`, `#/releases/R`, `#/releases/R/workflows/W/V[/steps/S]`, `#/diff?from=&to=`,
 * `#/runs?session=`, `#/runs/ID?session=`, `#/session`. The hash never holds a session file or a token.
 */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  readonly parts: readonly string[];
  readonly query: URLSearchParams;
}

export function parseHash(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = text.split('?', 2);
  return {
    parts: path
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

/** A hash link: segments encoded, empty query values left out. */
export function href(parts: readonly string[], query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, v);
  const search = params.toString();
  return `#/${parts.map(encodeURIComponent).join('/')}${search === '' ? '' : `?${search}`}`;
}

export function navigate(parts: readonly string[], query: Record<string, string | undefined> = {}): void {
  window.location.hash = href(parts, query);
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const onChange = (): void => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
