/**
 * The option tables of `rimthan participant …`: what their parsers accept and what `participant --help` prints. The
 * server and general options get rows of their own; the usage lines name the others.
 */
import type { OptionRow, OptionTable } from '../args.js';
import { TIMEOUT_OPTION } from '../client-timeout.js';

/** The server to talk to (one of). */
export const SERVER_OPTIONS: OptionTable = [
  {
    name: 'server-command',
    type: 'string',
    value: 'CMD',
    help: ['launch CMD and talk MCP over its stdio (words split on spaces; quotes group; no shell)'],
  },
  {
    name: 'url',
    type: 'string',
    value: 'URL',
    help: [
      'Streamable HTTP endpoint; the bearer token comes from --token-file FILE or',
      'RIMTHAN_MCP_BEARER_TOKEN, never from the command line',
    ],
  },
];

const TOKEN_FILE: OptionRow = { name: 'token-file', type: 'string', value: 'FILE' };
const WORKSPACE: OptionRow = {
  name: 'workspace',
  type: 'string',
  value: 'DIR',
  help: ['the repository (default: the working directory); the session is DIR/.rimthan/workflow-session.json'],
};
const JSON_OUTPUT: OptionRow = {
  name: 'json',
  type: 'boolean',
  help: ['print the tool answer (status, run summary) as JSON'],
};
const PROTECTED_PATH: OptionRow = {
  name: 'protected-path',
  type: 'string',
  multiple: true,
  value: 'P',
  help: ['a path repository policy protects (repeatable); sent as repository_policy'],
};
const YES: OptionRow = {
  name: 'yes',
  type: 'boolean',
  help: ['the values were confirmed by the person who wrote the script (no prompt)'],
};
const ANSWERS: OptionRow = {
  name: 'answers',
  type: 'string',
  value: 'FILE',
  help: ['run: a JSON object field -> value, each applied when the workflow reaches it'],
};
const VALIDATOR_COMMAND: OptionRow = {
  name: 'validator-command',
  type: 'string',
  value: 'CMD',
  help: [
    'run: per validator, CMD gets its work order (JSON) on stdin and prints its report',
    '({"outcome": "passed"|"failed", "findings": [...]}) on stdout; RIMTHAN_VALIDATOR_ID is set',
  ],
};
const NO_PROJECT_LOCAL: OptionRow = { name: 'no-project-local', type: 'boolean' };
const REPORTS: OptionRow = { name: 'reports', type: 'string', value: 'DIR' };

/** The rows printed under "Options:". */
export const GENERAL_OPTIONS: OptionTable = [
  WORKSPACE,
  JSON_OUTPUT,
  TIMEOUT_OPTION,
  PROTECTED_PATH,
  YES,
  ANSWERS,
  VALIDATOR_COMMAND,
];

/** What every participant command shares: the server, the workspace, `--json`, the repository policy. */
export const CONNECT_OPTIONS: OptionTable = [
  ...SERVER_OPTIONS,
  TOKEN_FILE,
  WORKSPACE,
  JSON_OUTPUT,
  TIMEOUT_OPTION,
  PROTECTED_PATH,
];
/** `--yes`: the answer was confirmed by whoever wrote the script. */
export const CONFIRM_OPTIONS: OptionTable = [YES];
/** What starting a workflow takes (start, run). */
export const START_OPTIONS: OptionTable = [
  { name: 'workflow', type: 'string', value: 'ID' },
  { name: 'workflow-version', type: 'string', value: 'V' },
  { name: 'harness', type: 'string', value: 'NAME' },
  { name: 'adapter', type: 'string', value: 'ID@VERSION' },
  { name: 'capability', type: 'string', multiple: true, value: 'C' },
  { name: 'validator-capability', type: 'string', multiple: true, value: 'C' },
  { name: 'set', type: 'string', multiple: true, value: 'FIELD=VALUE' },
];

/** `participant start`. */
export const PARTICIPANT_START_OPTIONS: OptionTable = [...CONNECT_OPTIONS, ...START_OPTIONS, ...CONFIRM_OPTIONS];
/** `participant answer FIELD VALUE [--yes]`. */
export const PARTICIPANT_ANSWER_OPTIONS: OptionTable = [...CONNECT_OPTIONS, ...CONFIRM_OPTIONS];
/** `participant write-assets [--no-project-local] [--context-out FILE]`. */
export const PARTICIPANT_WRITE_ASSETS_OPTIONS: OptionTable = [
  ...CONNECT_OPTIONS,
  NO_PROJECT_LOCAL,
  { name: 'context-out', type: 'string', value: 'FILE' },
];
/** `participant prepare [--orders DIR]`. */
export const PARTICIPANT_PREPARE_OPTIONS: OptionTable = [
  ...CONNECT_OPTIONS,
  { name: 'orders', type: 'string', value: 'DIR' },
];
/** `participant submit [--reports DIR]`. */
export const PARTICIPANT_SUBMIT_OPTIONS: OptionTable = [...CONNECT_OPTIONS, REPORTS];
/** `participant run`: start options, then the loop's. */
export const PARTICIPANT_RUN_OPTIONS: OptionTable = [
  ...CONNECT_OPTIONS,
  ...START_OPTIONS,
  ...CONFIRM_OPTIONS,
  ANSWERS,
  VALIDATOR_COMMAND,
  REPORTS,
  NO_PROJECT_LOCAL,
];

/** Each participant command's table, by its words. */
export const PARTICIPANT_TABLES: Readonly<Record<string, OptionTable>> = {
  'participant start': PARTICIPANT_START_OPTIONS,
  'participant status': CONNECT_OPTIONS,
  'participant answer': PARTICIPANT_ANSWER_OPTIONS,
  'participant continue': CONNECT_OPTIONS,
  'participant write-assets': PARTICIPANT_WRITE_ASSETS_OPTIONS,
  'participant prepare': PARTICIPANT_PREPARE_OPTIONS,
  'participant report': CONNECT_OPTIONS,
  'participant submit': PARTICIPANT_SUBMIT_OPTIONS,
  'participant run': PARTICIPANT_RUN_OPTIONS,
};
