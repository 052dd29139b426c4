/** The option tables of `rimthan admin …`: what their parsers accept and what `--help` prints, in help order. */
import type { OptionRow, OptionTable } from '../args.js';
import { TIMEOUT_OPTION } from '../client-timeout.js';

const URL: OptionRow = {
  name: 'url',
  type: 'string',
  value: 'URL',
  help: ['the Admin API (serve --admin-port), e.g. http://127.0.0.1:8766/admin'],
};
const JSON_OUTPUT: OptionRow = { name: 'json', type: 'boolean', help: ["print the API's JSON instead of text"] };
/** `--expected-current RELEASE`: compare-and-swap against what the caller saw instead of a fresh read. */
const EXPECTED_CURRENT: OptionRow = {
  name: 'expected-current',
  type: 'string',
  value: 'RELEASE',
  help: [
    'activate, migration-target: change only if the channel still names RELEASE (default: the value',
    'read just before; a concurrent change is refused with 409, never overwritten)',
  ],
};
/** `--clear`: migration-target without a release (the usage line names it). */
const CLEAR: OptionRow = { name: 'clear', type: 'boolean' };

/** What every admin command takes. */
export const ADMIN_OPTIONS: OptionTable = [URL, JSON_OUTPUT, TIMEOUT_OPTION];
/** `admin activate`. */
export const ADMIN_ACTIVATE_OPTIONS: OptionTable = [URL, JSON_OUTPUT, TIMEOUT_OPTION, EXPECTED_CURRENT];
/** `admin migration-target`. */
export const ADMIN_MIGRATION_TARGET_OPTIONS: OptionTable = [URL, JSON_OUTPUT, TIMEOUT_OPTION, EXPECTED_CURRENT, CLEAR];

/** Each admin command's table, by its words. */
export const ADMIN_TABLES: Readonly<Record<string, OptionTable>> = {
  'admin publish': ADMIN_OPTIONS,
  'admin list': ADMIN_OPTIONS,
  'admin show': ADMIN_OPTIONS,
  'admin activate': ADMIN_ACTIVATE_OPTIONS,
  'admin rollback': ADMIN_OPTIONS,
  'admin migration-target': ADMIN_MIGRATION_TARGET_OPTIONS,
};
