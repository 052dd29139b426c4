/**
 * One dedicated LISTEN connection per store: forwards notifications on the store's channel to a NotifyHub and
 * reconnects (with capped backoff) when the connection fails, until stopped. Notifications sent while disconnected are
 * lost; they are wake-up hints, and every user also polls (run workers claimRuns, release followers the channels).
 * `onConnected` is told after each successful LISTEN (a reconnect may have missed notifications: poll now).
 */
import type pg from 'pg';
import { pgDriver } from './driver.js';
import type { ClientConfig } from 'pg';
import type { NotifyHub } from '../core/notify-hub.js';

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;

export class PostgresListener {
  readonly #config: ClientConfig;
  readonly #channel: string;
  readonly #hub: NotifyHub;
  #client: pg.Client | undefined;
  #stopped = false;
  #backoff = MIN_BACKOFF_MS;
  #retry: NodeJS.Timeout | undefined;
  #ready: Promise<void> | undefined;

  readonly #onConnected: (() => void) | undefined;

  constructor(config: ClientConfig, channel: string, hub: NotifyHub, onConnected?: () => void) {
    this.#config = config;
    this.#channel = channel;
    this.#hub = hub;
    this.#onConnected = onConnected;
  }

  /** Starts listening (once); resolves when LISTEN is active or the first attempt failed (a retry is then scheduled). */
  start(): Promise<void> {
    this.#ready ??= this.#connect();
    return this.#ready;
  }

  /** Settles when the current connection attempt has; used so a notify right after onNotify is not missed. */
  get ready(): Promise<void> | undefined {
    return this.#ready;
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new (pgDriver().Client)(this.#config);
    this.#client = client;
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    client.on('notification', (msg) => {
      if (msg.channel === this.#channel && msg.payload !== undefined) this.#hub.emit(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.#channel}"`);
      this.#backoff = MIN_BACKOFF_MS;
      this.#onConnected?.();
    } catch {
      this.#lost(client);
    }
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    if (this.#stopped) return;
    const delay = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, MAX_BACKOFF_MS);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.#ready = this.#connect();
    }, delay);
    this.#retry.unref();
  }

  /** Stops listening and closes the connection. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retry !== undefined) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    if (client !== undefined) await client.end().catch(() => undefined);
  }
}
