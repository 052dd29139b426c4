/**
 * Preloaded with `node --import` into a spawned `rimthan serve`: records which modules the process has loaded by the
 * time it writes its first line to stdout (its first answer), ES modules through a resolve hook and CommonJS modules
 * from the require cache, into `${RIMTHAN_MODULE_TRACE}.first`, one URL or path per line. Only the order of events
 * matters, never a timer.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const trace = process.env['RIMTHAN_MODULE_TRACE'];
if (trace !== undefined) {
  writeFileSync(trace, '');
  register(new URL('./module-trace-hooks.js', import.meta.url));
  const required = createRequire(import.meta.url).cache;
  const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  let recorded = false;
  process.stdout.write = (...args: unknown[]): boolean => {
    if (!recorded) {
      recorded = true;
      appendFileSync(`${trace}.first`, `${readFileSync(trace, 'utf8')}${Object.keys(required).join('\n')}\n`);
    }
    return write(...args);
  };
}
