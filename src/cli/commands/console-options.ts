/** The option table of `rimthan console`: what its parser accepts and what its `--help` prints, in help order. */
import type { OptionTable } from '../args.js';

/** `rimthan console`. */
export const CONSOLE_OPTIONS: OptionTable = [
  {
    name: 'host',
    type: 'string',
    value: 'H',
    default: '127.0.0.1',
    help: ['listen address (default 127.0.0.1); beyond loopback --admin-token-file is required'],
  },
  {
    name: 'port',
    type: 'string',
    value: 'N',
    default: '8770',
    help: ['port (default 8770; 0 picks a free port)'],
  },
  {
    name: 'releases',
    type: 'string',
    value: 'DIR',
    help: ['a folder release store (default: the packaged releases)'],
  },
  {
    name: 'store',
    type: 'string',
    value: 'SPEC',
    help: ['run store: sqlite:PATH | PATH | postgres://... (default sqlite:./.rimthan/runs.db)'],
  },
  { name: 'flows', type: 'string', value: 'MODULE', help: ['the flow catalog (default: the example catalog)'] },
  {
    name: 'session',
    type: 'string',
    value: 'ID',
    help: ['without tokens: the session shown first (any session of the store can be chosen)'],
  },
  {
    name: 'workspace',
    type: 'string',
    multiple: true,
    value: 'DIR',
    help: ['a repository whose .rimthan/workflow-session.json the console may read (repeatable)'],
  },
  {
    name: 'admin-token-file',
    type: 'string',
    value: 'PATH',
    help: [
      'the admin bearer tokens, one per line, each its own caller who sees only its own',
      'session; or set RIMTHAN_ADMIN_BEARER_TOKEN',
    ],
  },
  {
    name: 'allowed-host',
    type: 'string',
    multiple: true,
    value: 'H',
    help: ['extra Host name accepted (repeatable; default localhost, 127.0.0.1, [::1], the --host)'],
  },
  { name: 'allowed-origin', type: 'string', multiple: true, value: 'O', help: ['extra Origin accepted (repeatable)'] },
];
