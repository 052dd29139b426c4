/**
 * The option tables of `rimthan runs …`: what their parsers accept and what `runs --help` prints. The options every
 * run command shares get rows of their own; the others are named by the usage lines.
 */
import type { OptionRow, OptionTable } from '../args.js';

/** `--store`, `--session`, `--flows`: which runs (list, get, history, cancel, upgrade, restart). */
export const RUNS_COMMON_OPTIONS: OptionTable = [
  {
    name: 'store',
    type: 'string',
    value: 'SPEC',
    help: ['sqlite:PATH | PATH | postgres://... (default sqlite:./.rimthan/runs.db); must exist, never created'],
  },
  {
    name: 'session',
    type: 'string',
    value: 'ID',
    help: [
      'the session whose runs to act on (runs are session-scoped); default: the stdio session kept',
      'beside the store by `rimthan serve --profile runs`',
    ],
  },
  {
    name: 'flows',
    type: 'string',
    value: 'MODULE',
    help: ['the flow catalog the runs were started from (default: the example catalog)'],
  },
];

const LIMIT: OptionRow = { name: 'limit', type: 'string', value: 'N' };

/** `runs list [--after CURSOR] [--limit N]`. */
export const RUNS_LIST_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS,
  { name: 'after', type: 'string', value: 'CURSOR' },
  LIMIT,
];
/** `runs get RUN_ID`. */
export const RUNS_GET_OPTIONS: OptionTable = RUNS_COMMON_OPTIONS;
/** `runs history RUN_ID [--after-revision N] [--after-event-id ID] [--limit N]`. */
export const RUNS_HISTORY_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS,
  { name: 'after-revision', type: 'string', value: 'N' },
  { name: 'after-event-id', type: 'string', value: 'ID' },
  LIMIT,
];
/** `runs cancel RUN_ID [--reason TEXT]`. */
export const RUNS_CANCEL_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS,
  { name: 'reason', type: 'string', value: 'TEXT' },
];
/** `runs upgrade RUN_ID --to VERSION [--continue]`. */
export const RUNS_UPGRADE_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS,
  { name: 'to', type: 'string', value: 'VERSION' },
  { name: 'continue', type: 'boolean' },
];
/** `runs restart RUN_ID --from VERTEX`. */
export const RUNS_RESTART_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS,
  { name: 'from', type: 'string', value: 'VERTEX' },
];
/** `runs send-event RUN_ID NAME --event-id ID [--payload JSON]`. */
export const RUNS_SEND_EVENT_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS.filter((row) => row.name !== 'flows'),
  { name: 'event-id', type: 'string', value: 'ID' },
  { name: 'payload', type: 'string', value: 'JSON' },
];
/** `runs migrate-store --from sqlite:PATH --to postgres://... [--schema NAME]`. */
export const RUNS_MIGRATE_STORE_OPTIONS: OptionTable = [
  { name: 'from', type: 'string', value: 'sqlite:PATH' },
  { name: 'to', type: 'string', value: 'postgres://...' },
  { name: 'schema', type: 'string', value: 'NAME' },
];

/** `runs prune [--store SPEC] [--flow NAME] [--older-than DURATION] [--keep-last N] [--dry-run] [--json]`. */
export const RUNS_PRUNE_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS.filter((row) => row.name === 'store'),
  { name: 'flow', type: 'string', value: 'NAME' },
  { name: 'older-than', type: 'string', value: 'DURATION' },
  { name: 'keep-last', type: 'string', value: 'N' },
  { name: 'dry-run', type: 'boolean' },
  { name: 'json', type: 'boolean' },
];

/** `runs session-id`'s own row, printed in its paragraph. */
export const SESSION_ID_TOKEN_FILE: OptionTable = [
  {
    name: 'token-file',
    type: 'string',
    value: 'FILE',
    help: ['read the tokens from FILE (the format of serve --token-file)'],
  },
];
/** `runs session-id [--token-file FILE]` or `--issuer URL --subject SUB`. */
export const RUNS_SESSION_ID_OPTIONS: OptionTable = [
  ...SESSION_ID_TOKEN_FILE,
  { name: 'issuer', type: 'string', value: 'URL' },
  { name: 'subject', type: 'string', value: 'SUB' },
];
/** `runs schedules [--store SPEC] [--json]`. */
export const RUNS_SCHEDULES_OPTIONS: OptionTable = [
  ...RUNS_COMMON_OPTIONS.filter((row) => row.name === 'store'),
  { name: 'json', type: 'boolean' },
];

/** `runs graph NAME@VERSION [--flows MODULE]`. */
export const RUNS_GRAPH_OPTIONS: OptionTable = RUNS_COMMON_OPTIONS.filter((row) => row.name === 'flows');

/** Each runs command's table, by its words. */
export const RUNS_TABLES: Readonly<Record<string, OptionTable>> = {
  'runs list': RUNS_LIST_OPTIONS,
  'runs get': RUNS_GET_OPTIONS,
  'runs history': RUNS_HISTORY_OPTIONS,
  'runs cancel': RUNS_CANCEL_OPTIONS,
  'runs upgrade': RUNS_UPGRADE_OPTIONS,
  'runs restart': RUNS_RESTART_OPTIONS,
  'runs send-event': RUNS_SEND_EVENT_OPTIONS,
  'runs migrate-store': RUNS_MIGRATE_STORE_OPTIONS,
  'runs session-id': RUNS_SESSION_ID_OPTIONS,
  'runs prune': RUNS_PRUNE_OPTIONS,
  'runs graph': RUNS_GRAPH_OPTIONS,
  'runs schedules': RUNS_SCHEDULES_OPTIONS,
};
