/**
 * Module hooks for module-trace.ts (they run on Node's hooks thread): every module URL resolved, appended to the file
 * named by RIMTHAN_MODULE_TRACE before the module can load.
 */
import { appendFileSync } from 'node:fs';

interface Resolved {
  readonly url: string;
}
type NextResolve = (specifier: string, context: unknown) => Promise<Resolved>;

const seen = new Set<string>();

export async function resolve(specifier: string, context: unknown, next: NextResolve): Promise<Resolved> {
  const resolved = await next(specifier, context);
  const file = process.env['RIMTHAN_MODULE_TRACE'];
  if (file !== undefined && !seen.has(resolved.url)) {
    seen.add(resolved.url);
    appendFileSync(file, `${resolved.url}\n`);
  }
  return resolved;
}
