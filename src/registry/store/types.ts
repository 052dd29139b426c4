/**
 * What a release store offers. `ReleaseSource` is the narrow synchronous view the folder store has always given the
 * active-release channel; `ReleaseStore` is the full asynchronous store every backend (folder, PostgreSQL) implements:
 * immutable releases as bytes plus digests, the two channels (`active`, `migration-target`) with compare-and-swap and
 * history, and an audit trail of every change (who, what, when, previous and new value).
 */
import type { Release } from '../model/release.js';

export type ReleaseLoad = { ok: true; release: Release } | { ok: false; reason: string };
export type ActiveName = { ok: true; release: string } | { ok: false; reason: string };

export interface ReleaseSource {
  /** Loads and verifies one release by name. */
  read(release: string): ReleaseLoad;
  /** The name of the active release. */
  readActive(): ActiveName;
}

export const StoreReason = {
  InvalidName: 'invalid_release_name',
  NotFound: 'release_not_found',
  NameMismatch: 'release_name_mismatch',
  ActiveMissing: 'active_missing',
  ActiveInvalid: 'active_invalid',
  ChannelInvalid: 'channel_invalid',
} as const;

/** The two channels every store keeps. */
export const ReleaseChannel = {
  Active: 'active',
  MigrationTarget: 'migration-target',
} as const;
export type ReleaseChannel = (typeof ReleaseChannel)[keyof typeof ReleaseChannel];
export const RELEASE_CHANNELS: readonly ReleaseChannel[] = [ReleaseChannel.Active, ReleaseChannel.MigrationTarget];

export function isReleaseChannel(value: string): value is ReleaseChannel {
  return (RELEASE_CHANNELS as readonly string[]).includes(value);
}

/** One stored release as listed (unverified: `loadRelease` verifies). */
export interface ReleaseInfo {
  readonly release: string;
  /** The manifest digest recorded at publish time (folder store: read from the file). */
  readonly manifest_sha256: string | null;
  /** SHA-256 of the stored bytes. */
  readonly bytes_sha256: string;
  readonly size: number;
  readonly published_at: string | null;
  /** The principal id that published it (null for files placed by hand). */
  readonly published_by: string | null;
}

/**
 * What a channel names right now: a release (with the SHA-256 of its stored bytes when the store can give it cheaply,
 * so a follower notices bytes changed under an unchanged name), nothing (`null`), or why it cannot be read.
 */
export type ChannelRead =
  | { readonly ok: true; readonly release: string | null; readonly bytes_sha256?: string }
  | { readonly ok: false; readonly reason: string };

export type ChannelsRead = Readonly<Record<ReleaseChannel, ChannelRead>>;

/** One change of a channel, as kept in its history. */
export interface ChannelChange {
  readonly channel: ReleaseChannel;
  readonly previous: string | null;
  readonly release: string | null;
  readonly changed_at: string;
  readonly changed_by: string;
}

export const AuditAction = {
  Publish: 'release.publish',
  SetChannel: 'channel.set',
  ClearChannel: 'channel.clear',
} as const;
export type AuditAction = (typeof AuditAction)[keyof typeof AuditAction];

/** One audited admin action: who (a principal id), what, when, on which subject, previous and new value. */
export interface AuditEntry {
  readonly at: string;
  readonly actor: string;
  readonly action: AuditAction;
  /** The release published, or the channel changed. */
  readonly subject: string;
  readonly previous: string | null;
  readonly value: string | null;
}

/** A publish that stored the release (`created`) or found the same bytes already there. */
export interface PublishOutcome {
  readonly release: string;
  readonly manifest_sha256: string;
  readonly created: boolean;
}

/** A channel change request; `expectedCurrent` (when given) must equal the channel's value or the change is refused. */
export interface ChannelUpdate {
  readonly channel: ReleaseChannel;
  /** The release to point at, or null to clear (only the migration target may be cleared). */
  readonly release: string | null;
  /** Compare-and-swap: the value the caller saw (null: the channel was empty); undefined skips the check. */
  readonly expectedCurrent?: string | null;
  /** The principal id doing it, for history and audit. */
  readonly actor: string;
}

/**
 * A release store. Refusals are RimthanErrors with stable codes: `release_invalid` (does not verify; `entry` names
 * the failing entry), `release_immutable` (the name holds other bytes), `release_unavailable` (a channel may only name
 * a stored release that verifies), `channel_conflict` (a stale expected_current), `invalid_argument`.
 */
export interface ReleaseStore {
  /** `folder` or `postgres`. */
  readonly kind: string;
  /** Where it is, for messages (a URL with its password masked). */
  readonly location: string;
  /** Every stored release, sorted by name. */
  listReleases(): Promise<ReleaseInfo[]>;
  /** The stored info of one release, or undefined. */
  releaseInfo(release: string): Promise<ReleaseInfo | undefined>;
  /** One release, verified exactly as `verifyReleaseFile` does; never cached by the store beyond a bounded LRU. */
  loadRelease(release: string): Promise<ReleaseLoad>;
  /** Verifies and stores a built release file (immutable: the same bytes again is a no-op). */
  publishRelease(bytes: Uint8Array, actor: string): Promise<PublishOutcome>;
  /** What both channels name now. */
  readChannels(): Promise<ChannelsRead>;
  /** Changes one channel (compare-and-swap, history and audit in the same step); returns the change. */
  setChannel(update: ChannelUpdate): Promise<ChannelChange>;
  /** Channel changes, newest first. */
  channelHistory(opts?: { channel?: ReleaseChannel; limit?: number }): Promise<ChannelChange[]>;
  /** Audited actions, newest first. */
  auditTrail(opts?: { limit?: number }): Promise<AuditEntry[]>;
  /**
   * Calls `listener` soon after a channel or release changes (PostgreSQL: LISTEN/NOTIFY, including after a
   * reconnect); a hint only, followers also poll. Returns the unsubscribe function. Stores without it are polled.
   */
  watch?(listener: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The default and largest number of history or audit rows one call returns. */
export const HISTORY_LIMITS = { default: 100, max: 1000 } as const;
