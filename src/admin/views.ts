/** What the Admin API shows of releases and channels (release content and principal ids, never participant data). */
import type { ChannelsRead, Release, ReleaseInfo, ReleaseLoad } from '../registry/index.js';
import { ReleaseChannel } from '../registry/index.js';

export interface ChannelView {
  readonly channel: string;
  readonly release: string | null;
  readonly error?: string;
}

export function channelViews(channels: ChannelsRead): ChannelView[] {
  return [ReleaseChannel.Active, ReleaseChannel.MigrationTarget].map((channel) => {
    const read = channels[channel];
    return read.ok ? { channel, release: read.release } : { channel, release: null, error: read.reason };
  });
}

function channelsNaming(release: string, channels: ChannelsRead): string[] {
  return [ReleaseChannel.Active, ReleaseChannel.MigrationTarget].filter((c) => {
    const read = channels[c];
    return read.ok && read.release === release;
  });
}

/** One row of `GET /admin/releases`. */
export function releaseRow(info: ReleaseInfo, channels: ChannelsRead): Record<string, unknown> {
  return { ...info, channels: channelsNaming(info.release, channels) };
}

function workflowsOf(release: Release): Record<string, unknown>[] {
  return release.workflows.map((w) => ({ id: w.id, version: w.version, title: w.title }));
}

/** `GET /admin/releases/{release}`: the stored facts, the channels naming it, and what verification says. */
export function releaseDetail(info: ReleaseInfo, loaded: ReleaseLoad, channels: ChannelsRead): Record<string, unknown> {
  const base = { ...releaseRow(info, channels) };
  if (!loaded.ok) return { ...base, verified: false, reason: loaded.reason };
  return {
    ...base,
    verified: true,
    registry_id: loaded.release.registry_id,
    manifest_sha256: loaded.release.manifest_sha256,
    workflows: workflowsOf(loaded.release),
    entries: loaded.release.manifest.entries.length,
  };
}
