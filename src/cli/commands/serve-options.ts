/**
 * The option table of `rimthan serve`: what its parser accepts and what its `--help` prints, in help order. Cheap to
 * load (no imports but types): the help of every command reads it.
 */
import type { OptionRow, OptionTable } from '../args.js';

/** `--allowed-host H`: an extra Host name the HTTP listener accepts. */
const ALLOWED_HOST: OptionRow = {
  name: 'allowed-host',
  type: 'string',
  multiple: true,
  value: 'H',
  help: [
    'extra Host accepted over HTTP and by the Admin API: NAME or NAME:PORT (repeatable);',
    'localhost, 127.0.0.1 and [::1] are always accepted with the listening port',
  ],
};

/** `--allowed-origin O`: an extra Origin the HTTP listener accepts. */
const ALLOWED_ORIGIN: OptionRow = {
  name: 'allowed-origin',
  type: 'string',
  multiple: true,
  value: 'O',
  help: ['extra Origin accepted, scheme://host[:port] exactly (repeatable; another port is another origin)'],
};

/** The identity options (identity-options.ts holds their names for the stdio refusal). */
const IDENTITY: OptionTable = [
  {
    name: 'token-file',
    type: 'string',
    value: 'PATH',
    help: [
      'require "Authorization: Bearer <token>"; PATH holds one token per line, each',
      'its own caller (runs: its own session); or set RIMTHAN_MCP_BEARER_TOKEN',
    ],
  },
  {
    name: 'oauth-issuer',
    type: 'string',
    value: 'URL',
    help: [
      'accept OAuth 2.1 JWT access tokens from this issuer (exact iss); needs the two below;',
      'with --token-file as well, either kind of credential is accepted',
    ],
  },
  {
    name: 'oauth-audience',
    type: 'string',
    value: 'A',
    help: ["the audience (aud) tokens must carry: normally this endpoint's public URL"],
  },
  {
    name: 'oauth-jwks',
    type: 'string',
    value: 'F|URL',
    help: [
      "the issuer's public keys: a JWKS file or an https:// URL (cached; refetched for an unknown",
      'kid at most every 30 s); loaded at start, so a wrong one stops the start',
    ],
  },
  {
    name: 'oauth-resource',
    type: 'string',
    value: 'URL',
    help: [
      "the endpoint's public URL for RFC 9728 metadata (default: the audience), served at",
      "/.well-known/oauth-protected-resource and named in every 401's WWW-Authenticate",
    ],
  },
];

/** The Admin API options (admin-wiring.ts acts on them). */
const ADMIN: OptionTable = [
  {
    name: 'admin-port',
    type: 'string',
    value: 'N',
    help: [
      'start the Admin API on its own listener, with the Prometheus metrics at /admin/metrics',
      '(0 picks a free port; http only; workflow-engine: needs --releases; runs: healthz,',
      'readyz and metrics only)',
    ],
  },
  {
    name: 'admin-host',
    type: 'string',
    value: 'H',
    default: '127.0.0.1',
    help: ['Admin API listen address (default 127.0.0.1)'],
  },
  {
    name: 'admin-token-file',
    type: 'string',
    value: 'PATH',
    help: ['admin tokens, one per line (or RIMTHAN_ADMIN_BEARER_TOKEN); required with --admin-port'],
  },
];

/** The options of the runs profile. */
const RUNS: OptionTable = [
  {
    name: 'store',
    type: 'string',
    value: 'SPEC',
    help: [
      'runs: sqlite:PATH | PATH | postgres://... (default sqlite:./.rimthan/runs.db; a missing',
      'SQLite file is created, and a .rimthan/ folder gets a .gitignore keeping it out of Git)',
    ],
  },
  {
    name: 'flows',
    type: 'string',
    value: 'MODULE',
    help: [
      'runs: a module exporting `flows` (an array of defineFlow results) or a default FlowCatalog',
      '(default: the example catalog)',
    ],
  },
  {
    name: 'session',
    type: 'string',
    value: 'ID',
    help: [
      'runs over stdio: the session id (default: one generated once and kept beside the store,',
      'in <store file>.stdio-session, so a restarted agent sees its runs)',
    ],
  },
  {
    name: 'concurrency',
    type: 'string',
    value: 'N',
    default: '16',
    help: ['runs: runs this worker executes at once (default 16); further starts wait as pending'],
  },
  {
    name: 'lease-ms',
    type: 'string',
    value: 'MS',
    default: '30000',
    help: ["runs: lease length (default 30000); a dead worker's runs are taken over 1-1.5x this after it died"],
  },
  {
    name: 'fail-removed-versions',
    type: 'boolean',
    help: [
      'runs: fail the unfinished runs of flow versions --flows no longer has (default: refuse to',
      'start and name them)',
    ],
  },
  {
    name: 'retain-for',
    type: 'string',
    value: 'DURATION',
    help: [
      'runs: delete finished runs (with their history and inputs) this long after they finished,',
      'such as 30d, 12h or 90m (default: keep every finished run)',
    ],
  },
  {
    name: 'retain-last',
    type: 'string',
    value: 'N',
    help: ["runs: keep each flow's N most recently finished runs (with --retain-for: at least these)"],
  },
];

/** `rimthan serve`. */
export const SERVE_OPTIONS: OptionTable = [
  {
    name: 'profile',
    type: 'string',
    value: 'P',
    default: 'workflow-engine',
    help: [
      'workflow-engine (default): the four guided tools, release resources, bootstrap prompt,',
      "and each release's skills (MCP Skills extension)",
      'runs: the seven durable-run tools; runs as tasks for clients declaring the MCP Tasks',
      'extension. On MCP 2026-07-28, a client declaring form elicitation gets questions and',
      'approvals as forms for its person; every other client gets the plain tools.',
    ],
  },
  {
    name: 'transport',
    type: 'string',
    value: 'T',
    default: 'stdio',
    help: ['stdio (default) | http (stateless Streamable HTTP, POST /mcp)'],
  },
  { name: 'host', type: 'string', value: 'H', default: '127.0.0.1', help: ['HTTP listen address (default 127.0.0.1)'] },
  {
    name: 'port',
    type: 'string',
    value: 'N',
    default: '8765',
    help: ['HTTP port (default 8765; 0 picks a free port)'],
  },
  {
    name: 'drain-seconds',
    type: 'string',
    value: 'S',
    default: '0',
    help: [
      'HTTP: after SIGTERM/SIGINT, keep answering for S seconds (0-300, default 0) while GET /readyz',
      'says 503 "draining", so a proxy stops sending new calls first; a second signal stops at once',
    ],
  },
  ALLOWED_HOST,
  ALLOWED_ORIGIN,
  ...IDENTITY,
  {
    name: 'releases',
    type: 'string',
    value: 'STORE',
    help: [
      'workflow-engine: a folder release store, or postgres://...[?schema=NAME] (the store',
      'replicas share; schema default rimthan_releases) (default: the packaged releases)',
    ],
  },
  {
    name: 'source',
    type: 'string',
    value: 'DIR',
    help: [
      'workflow-engine, loopback only: serve a release source folder directly (authoring): each',
      'build is its own release <release>-dev.<digest8>, rebuilt on every change; a broken edit',
      'keeps the last good build serving and prints its problems as file:line on stderr; sessions',
      'keep resuming on the build they started on (builds kept in $XDG_STATE_HOME/rimthan/dev-releases/)',
    ],
  },
  ...ADMIN,
  ...RUNS,
  {
    name: 'log-format',
    type: 'string',
    value: 'F',
    default: 'text',
    help: [
      'text (default): "rimthan: ..." lines for a person; json: one JSON object per event line',
      '(start, release_change, release_refresh_failed, release_refresh_recovered, fault, stop) for',
      'a log collector; the "listening on URL" notices stay plain text in both',
    ],
  },
];
