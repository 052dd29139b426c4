/**
 * A transparent stdio tap between a host and an MCP server: `node stdio-tap.js LOG -- COMMAND ARGS...` starts the
 * server, passes every byte both ways unchanged, and appends one JSON line per JSON-RPC message to LOG
 * (`{at_ms, dir: "in"|"out", message}`, `at_ms` since the tap started). The host tests register the server through it
 * to see what the host negotiated and how long the server took to answer its first message.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, separator, command, ...args] = process.argv.slice(2);
if (log === undefined || separator !== '--' || command === undefined) {
  process.stderr.write('usage: stdio-tap LOG -- COMMAND [ARGS...]\n');
  process.exit(2);
}
const started = performance.now();
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

function tap(dir: 'in' | 'out'): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      let message: unknown = line;
      try {
        message = JSON.parse(line);
      } catch {
        // Not JSON: logged as the raw line.
      }
      appendFileSync(log as string, `${JSON.stringify({ at_ms: performance.now() - started, dir, message })}\n`);
      newline = pending.indexOf('\n');
    }
  };
}

const fromHost = tap('in');
const fromServer = tap('out');
process.stdin.on('data', (chunk: Buffer) => {
  fromHost(chunk);
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (chunk: Buffer) => {
  fromServer(chunk);
  process.stdout.write(chunk);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
