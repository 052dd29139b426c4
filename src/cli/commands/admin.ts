/**
 * `rimthan admin publish|list|show|activate|rollback|migration-target`: the Admin API from a terminal. Human output by
 * default, `--json` prints the API's JSON. `activate` and `migration-target` are compare-and-swap against the value
 * read just before (a concurrent change is refused, not overwritten); `rollback` returns the active channel to the
 * release it named before its latest change (twice in a row toggles back, like an undo).
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { MAX_RELEASE_BYTES } from '../../registry/index.js';
import { adminClient } from '../admin-client.js';
import type { AdminClient } from '../admin-client.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import type { OptionTable, Parsed } from '../args.js';
import { CommandFailed, reasonOf, UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { ADMIN_ACTIVATE_OPTIONS, ADMIN_MIGRATION_TARGET_OPTIONS, ADMIN_OPTIONS } from './admin-options.js';

const TOPIC = 'admin';

interface Channel {
  channel: string;
  release: string | null;
}
interface Change {
  channel: string;
  previous: string | null;
  release: string | null;
  changed_at: string;
  changed_by: string;
}

function setup(
  argv: string[],
  io: CliIo,
  table: OptionTable = ADMIN_OPTIONS,
): { parsed: Parsed; client: AdminClient; json: boolean } {
  const parsed = parseCommand(argv, table, TOPIC);
  const url = stringOption(parsed, 'url');
  if (url === undefined)
    throw new UsageError(
      '--url ADMIN_URL is required (the serve --admin-port listener, e.g. http://127.0.0.1:8766/admin)',
      TOPIC,
    );
  return { parsed, client: adminClient(url, io), json: parsed.values['json'] === true };
}

function print(io: CliIo, json: boolean, value: unknown, human: () => string): void {
  io.out(json ? JSON.stringify(value, null, 2) : human());
}

async function channelValue(client: AdminClient, channel: string): Promise<string | null> {
  const { value } = await client.request('GET', '/channels');
  const found = (value as { channels: Channel[] }).channels.find((c) => c.channel === channel);
  return found?.release ?? null;
}

const changeLine = (c: Change): string => `${c.channel}: ${c.previous ?? '(none)'} -> ${c.release ?? '(none)'}`;

/** `admin publish FILE`. */
export async function adminPublish(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json } = setup(argv, io);
  const [file = ''] = positionals(parsed, 1, 'one release file: rimthan admin publish FILE', TOPIC);
  const path = resolve(io.cwd, file);
  let bytes: Buffer;
  try {
    if (statSync(path).size > MAX_RELEASE_BYTES) {
      throw new CommandFailed('release_invalid', `${file} is larger than ${MAX_RELEASE_BYTES} bytes`);
    }
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof CommandFailed) throw error;
    throw new CommandFailed('invalid_config', `cannot read ${file}: ${reasonOf(error)}`, { cause: error });
  }
  const { value } = await client.request('POST', '/releases', bytes);
  const v = value as { release: string; manifest_sha256: string; created: boolean };
  print(io, json, value, () =>
    v.created
      ? `published ${v.release} (manifest ${v.manifest_sha256})`
      : `${v.release} was already published with these bytes (unchanged)`,
  );
}

/** `admin list`. */
export async function adminList(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json } = setup(argv, io);
  positionals(parsed, 0, 'no arguments: rimthan admin list', TOPIC);
  const { value } = await client.request('GET', '/releases');
  const rows = (
    value as {
      releases: { release: string; channels: string[]; published_at: string | null; published_by: string | null }[];
    }
  ).releases;
  print(io, json, value, () => {
    if (rows.length === 0) return '(no releases)';
    const width = Math.max(...rows.map((r) => r.release.length), 'RELEASE'.length);
    const head = `${'RELEASE'.padEnd(width)}  ${'CHANNELS'.padEnd(24)}  PUBLISHED`;
    const lines = rows.map(
      (r) =>
        `${r.release.padEnd(width)}  ${(r.channels.join(',') || '-').padEnd(24)}  ${r.published_at ?? '-'} by ${r.published_by ?? '-'}`,
    );
    return [head, ...lines].join('\n');
  });
}

/** `admin show RELEASE`. */
export async function adminShow(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json } = setup(argv, io);
  const [release = ''] = positionals(parsed, 1, 'one release name: rimthan admin show RELEASE', TOPIC);
  const { value } = await client.request('GET', `/releases/${encodeURIComponent(release)}`);
  const r = (value as { release: Record<string, unknown> }).release;
  const text = (key: string): string => {
    const v = r[key];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '-';
  };
  print(io, json, value, () => {
    const workflows = (r['workflows'] as { id: string; version: string; title: string }[] | undefined) ?? [];
    return [
      `release          ${text('release')}`,
      `verified         ${r['verified'] === true ? 'yes' : `no (${text('reason')})`}`,
      `manifest sha256  ${text('manifest_sha256')}`,
      `bytes sha256     ${text('bytes_sha256')} (${text('size')} bytes)`,
      `published        ${text('published_at')} by ${text('published_by')}`,
      `channels         ${(r['channels'] as string[]).join(', ') || '-'}`,
      ...workflows.map((w) => `workflow         ${w.id}@${w.version}  ${w.title}`),
    ].join('\n');
  });
}

/** Sets a channel, compare-and-swap against `--expected-current` (when given) or the value read just before. */
async function setChannel(client: AdminClient, channel: string, release: string, parsed: Parsed): Promise<unknown> {
  const given = stringOption(parsed, 'expected-current');
  const current = given ?? (await channelValue(client, channel));
  const { value } = await client.request('PUT', `/channels/${channel}`, { release, expected_current: current });
  return value;
}

/** `admin activate RELEASE`. */
export async function adminActivate(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json } = setup(argv, io, ADMIN_ACTIVATE_OPTIONS);
  const [release = ''] = positionals(parsed, 1, 'one release name: rimthan admin activate RELEASE', TOPIC);
  const value = await setChannel(client, 'active', release, parsed);
  print(io, json, value, () => changeLine((value as { change: Change }).change));
}

/** `admin rollback`: the active channel back to the release it named before its latest change. */
export async function adminRollback(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json } = setup(argv, io);
  positionals(parsed, 0, 'no arguments: rimthan admin rollback', TOPIC);
  const { value: history } = await client.request('GET', '/channels/history?channel=active&limit=1');
  const latest = (history as { history: Change[] }).history[0];
  if (latest === undefined || latest.previous === null || latest.release === null) {
    throw new CommandFailed('no_previous_release', 'the active channel has no previous release to roll back to');
  }
  const { value } = await client.request('PUT', '/channels/active', {
    release: latest.previous,
    expected_current: latest.release,
  });
  print(io, json, value, () => `rolled back ${changeLine((value as { change: Change }).change)}`);
}

/** `admin migration-target RELEASE | --clear`. */
export async function adminMigrationTarget(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json } = setup(argv, io, ADMIN_MIGRATION_TARGET_OPTIONS);
  const clear = parsed.values['clear'] === true;
  if (clear) {
    positionals(parsed, 0, 'no release with --clear: rimthan admin migration-target --clear', TOPIC);
    const current = stringOption(parsed, 'expected-current') ?? (await channelValue(client, 'migration-target'));
    const query = current === null ? '' : `?expected_current=${encodeURIComponent(current)}`;
    const { value } = await client.request('DELETE', `/channels/migration-target${query}`);
    print(io, json, value, () => changeLine((value as { change: Change }).change));
    return;
  }
  const [release = ''] = positionals(
    parsed,
    1,
    'one release name or --clear: rimthan admin migration-target RELEASE|--clear',
    TOPIC,
  );
  const value = await setChannel(client, 'migration-target', release, parsed);
  print(io, json, value, () => changeLine((value as { change: Change }).change));
}
