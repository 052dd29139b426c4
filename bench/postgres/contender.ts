/**
 * The parent's side of a contender process (child.ts): spawn it with its engine, send one operation at a time, read
 * the reply. A contender that dies or reports an error fails the operation with its message.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ContenderConfig {
  readonly engine: 'rimthan' | 'dbos' | 'langgraph';
  readonly url: string;
  readonly schema: string;
  readonly concurrency: number;
  readonly poolMax: number;
  readonly workerId?: string;
  readonly leaseMs?: number;
  readonly slowStepMs?: number;
  readonly shared?: boolean;
}

export type ContenderOp =
  | { readonly op: 'sequential'; readonly runs: number }
  | { readonly op: 'closed'; readonly clients: number; readonly ms: number }
  | { readonly op: 'starts'; readonly clients: number; readonly ms: number }
  | { readonly op: 'startSlow'; readonly count: number }
  | { readonly op: 'close' };

export type ContenderReply =
  | {
      readonly ok: true;
      readonly ready?: true;
      readonly msPerStep?: number[];
      readonly perSecond?: number;
      readonly count?: number;
      readonly runIds?: string[];
      /** Synced store transactions per workflow (SQLite: one WAL fsync each), where the contender counts them. */
      readonly transactionsPerRun?: number;
    }
  | { readonly ok: false; readonly error: string };

export interface Contender {
  readonly child: ChildProcess;
  call(op: ContenderOp): Promise<Extract<ContenderReply, { ok: true }>>;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./child.js', import.meta.url));

/** Forks a contender and resolves once its engine is open. */
export function spawnContender(config: ContenderConfig): Promise<Contender> {
  return spawnIpc(CHILD, JSON.stringify(config), config.engine);
}

/**
 * Forks `script` (a module speaking this protocol: a ready reply, then one reply per operation) with `argument` as
 * its argv[2]; `label` names it in errors.
 */
export async function spawnIpc(script: string, argument: string, label: string): Promise<Contender> {
  const child = fork(script, [argument], {
    execArgv: ['--no-deprecation'],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (): Promise<Extract<ContenderReply, { ok: true }>> =>
    new Promise((resolve, reject) => {
      const onExit = (): void => reject(new Error(`${label} contender exited: ${stderr.trim()}`));
      child.once('exit', onExit);
      child.once('message', (reply: ContenderReply) => {
        child.off('exit', onExit);
        if (reply.ok) resolve(reply);
        else reject(new Error(`${label} contender: ${reply.error}`));
      });
    });
  await next();
  const call = (op: ContenderOp): Promise<Extract<ContenderReply, { ok: true }>> => {
    const reply = next();
    child.send(op);
    return reply;
  };
  return {
    child,
    call,
    async close() {
      if (child.exitCode === null && child.connected) {
        try {
          await call({ op: 'close' });
        } catch {
          // already gone
        }
      }
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The child side of the contender protocol: parses argv[2] as the configuration, opens the contender with it, answers
 * each message with `handle`, says `ready`, and exits with `label` and the fault when opening fails.
 */
export function serveContender<C, E>(
  label: string,
  open: (config: C) => Promise<E>,
  handle: (engine: E, op: ContenderOp) => Promise<ContenderReply>,
): void {
  const run = async (): Promise<void> => {
    const engine = await open(JSON.parse(process.argv[2] ?? '{}') as C);
    process.on('message', (message: ContenderOp) => {
      handle(engine, message).then(
        (reply) => {
          process.send?.(reply);
          if (message.op === 'close') process.disconnect();
        },
        (error: unknown) =>
          process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      );
    });
    process.send?.({ ok: true, ready: true });
  };
  run().catch((error: unknown) => {
    process.stderr.write(
      `${label} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
