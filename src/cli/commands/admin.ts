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
import type { Change } from '../admin-answers.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import type { OptionTable, Parsed } from '../args.js';
import { timeoutMs } from '../client-timeout.js';
import { CommandFailed, reasonOf, UsageError } from '../errors.js';
import { terminalIo } from '../io.js';
import type { CliIo } from '../io.js';
import { shown } from '../terminal.js';
import { ADMIN_ACTIVATE_OPTIONS, ADMIN_MIGRATION_TARGET_OPTIONS, ADMIN_OPTIONS } from './admin-options.js';

const TOPIC = 'admin';

function setup(
  argv: string[],
  given: CliIo,
  table: OptionTable = ADMIN_OPTIONS,
): { parsed: Parsed; client: AdminClient; json: boolean; io: CliIo } {
  const io = terminalIo(given);
  const parsed = parseCommand(argv, table, TOPIC);
  const url = stringOption(parsed, 'url');
  if (url === undefined)
    throw new UsageError(
      '--url ADMIN_URL is required (the serve --admin-port listener, e.g. http://127.0.0.1:8766/admin)',
      TOPIC,
    );
  return {
    parsed,
    client: adminClient(url, io, timeoutMs(parsed, TOPIC)),
    json: parsed.values['json'] === true,
    io,
  };
}

function print(io: CliIo, json: boolean, value: unknown, human: () => string): void {
  io.out(json ? JSON.stringify(value, null, 2) : human());
}

async function channelValue(client: AdminClient, channel: string): Promise<string | null> {
  const { value } = await client.request('GET', '/channels', 'channels');
  const found = value.channels.find((c) => c.channel === channel);
  return found?.release ?? null;
}

const changeLine = (c: Change): string =>
  `${c.channel}: ${c.previous === null ? '(none)' : shown(c.previous)} -> ${c.release === null ? '(none)' : shown(c.release)}`;

/** `admin publish FILE`. */
export async function adminPublish(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json, io: out } = setup(argv, io);
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
  const { value: v } = await client.request('POST', '/releases', 'publish', bytes);
  print(out, json, v, () =>
    v.created
      ? `published ${shown(v.release)} (manifest ${v.manifest_sha256})`
      : `${shown(v.release)} was already published with these bytes (unchanged)`,
  );
}

/** `admin list`. */
export async function adminList(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json, io: out } = setup(argv, io);
  positionals(parsed, 0, 'no arguments: rimthan admin list', TOPIC);
  const { value } = await client.request('GET', '/releases', 'releases');
  const rows = value.releases;
  print(out, json, value, () => {
    if (rows.length === 0) return '(no releases)';
    const names = rows.map((r) => shown(r.release));
    const width = Math.max(...names.map((n) => n.length), 'RELEASE'.length);
    const head = `${'RELEASE'.padEnd(width)}  ${'CHANNELS'.padEnd(24)}  PUBLISHED`;
    const lines = rows.map(
      (r, i) =>
        `${(names[i] ?? '').padEnd(width)}  ${(r.channels.join(',') || '-').padEnd(24)}  ${shown(r.published_at ?? '-')} by ${shown(r.published_by ?? '-')}`,
    );
    return [head, ...lines].join('\n');
  });
}

/** `admin show RELEASE`. */
export async function adminShow(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json, io: out } = setup(argv, io);
  const [release = ''] = positionals(parsed, 1, 'one release name: rimthan admin show RELEASE', TOPIC);
  const { value } = await client.request('GET', `/releases/${encodeURIComponent(release)}`, 'release');
  const r = value.release;
  const text = (v: string | number | null | undefined): string =>
    v === null || v === undefined ? '-' : shown(String(v));
  print(out, json, value, () =>
    [
      `release          ${text(r.release)}`,
      `verified         ${r.verified ? 'yes' : `no (${text(r.reason)})`}`,
      `manifest sha256  ${text(r.manifest_sha256)}`,
      `bytes sha256     ${text(r.bytes_sha256)} (${text(r.size)} bytes)`,
      `published        ${text(r.published_at)} by ${text(r.published_by)}`,
      `channels         ${r.channels.join(', ') || '-'}`,
      ...(r.workflows ?? []).map((w) => `workflow         ${shown(w.id)}@${shown(w.version)}  ${shown(w.title)}`),
    ].join('\n'),
  );
}

/** Sets a channel, compare-and-swap against `--expected-current` (when given) or the value read just before. */
async function setChannel(
  client: AdminClient,
  channel: string,
  release: string,
  parsed: Parsed,
): Promise<{ change: Change }> {
  const given = stringOption(parsed, 'expected-current');
  const current = given ?? (await channelValue(client, channel));
  const { value } = await client.request('PUT', `/channels/${channel}`, 'change', {
    release,
    expected_current: current,
  });
  return value;
}

/** `admin activate RELEASE`. */
export async function adminActivate(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json, io: out } = setup(argv, io, ADMIN_ACTIVATE_OPTIONS);
  const [release = ''] = positionals(parsed, 1, 'one release name: rimthan admin activate RELEASE', TOPIC);
  const value = await setChannel(client, 'active', release, parsed);
  print(out, json, value, () => changeLine(value.change));
}

/** `admin rollback`: the active channel back to the release it named before its latest change. */
export async function adminRollback(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json, io: out } = setup(argv, io);
  positionals(parsed, 0, 'no arguments: rimthan admin rollback', TOPIC);
  const { value: history } = await client.request('GET', '/channels/history?channel=active&limit=1', 'history');
  const latest = history.history[0];
  if (latest === undefined || latest.previous === null || latest.release === null) {
    throw new CommandFailed('no_previous_release', 'the active channel has no previous release to roll back to');
  }
  const { value } = await client.request('PUT', '/channels/active', 'change', {
    release: latest.previous,
    expected_current: latest.release,
  });
  print(out, json, value, () => `rolled back ${changeLine(value.change)}`);
}

/** `admin migration-target RELEASE | --clear`. */
export async function adminMigrationTarget(argv: string[], io: CliIo): Promise<void> {
  const { parsed, client, json, io: out } = setup(argv, io, ADMIN_MIGRATION_TARGET_OPTIONS);
  const clear = parsed.values['clear'] === true;
  if (clear) {
    positionals(parsed, 0, 'no release with --clear: rimthan admin migration-target --clear', TOPIC);
    const current = stringOption(parsed, 'expected-current') ?? (await channelValue(client, 'migration-target'));
    const query = current === null ? '' : `?expected_current=${encodeURIComponent(current)}`;
    const { value } = await client.request('DELETE', `/channels/migration-target${query}`, 'change');
    print(out, json, value, () => changeLine(value.change));
    return;
  }
  const [release = ''] = positionals(
    parsed,
    1,
    'one release name or --clear: rimthan admin migration-target RELEASE|--clear',
    TOPIC,
  );
  const value = await setChannel(client, 'migration-target', release, parsed);
  print(out, json, value, () => changeLine(value.change));
}
