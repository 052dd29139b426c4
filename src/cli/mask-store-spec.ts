/**
 * A store setting as the CLI may print it: credentials masked. Apart from run-store.ts, which opens stores, so that the
 * release store's messages can use it without loading the run store.
 */

/** A store setting with its credentials masked: the password in the URL and any password-like query parameter. */
export function maskStoreSpec(spec: string): string {
  const value = spec.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value.replace(/\/\/[^/@]*@/, '//***@');
  }
  if (url.password !== '') url.password = '***';
  for (const key of [...url.searchParams.keys()]) {
    if (/pass|secret|key|token/i.test(key)) url.searchParams.set(key, '***');
  }
  return url.href.replace(/%2A%2A%2A/g, '***');
}
