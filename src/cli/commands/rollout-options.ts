/** The option tables of `rimthan rollout …`: what their parsers accept and what `rollout --help` prints, in order. */
import type { OptionTable } from '../args.js';

/** What both rollouts take. */
export const ROLLOUT_COMMON_OPTIONS: OptionTable = [
  {
    name: 'url',
    type: 'string',
    value: 'URL',
    help: [
      'the MCP endpoint participants connect to: https:// (http:// only on a loopback host), no',
      'credentials, query or fragment',
    ],
  },
  {
    name: 'out',
    type: 'string',
    short: 'o',
    value: 'DIR',
    help: ['the folder to write; it must be new or empty unless --force'],
  },
  {
    name: 'force',
    type: 'boolean',
    help: ['write into a folder that is not empty, overwriting the files rollout writes (nothing else)'],
  },
  {
    name: 'token-env',
    type: 'string',
    value: 'NAME',
    default: 'RIMTHAN_TOKEN',
    help: [
      'the environment variable each person keeps their bearer token in (default RIMTHAN_TOKEN);',
      'the files name the variable, never a token',
    ],
  },
  {
    name: 'oauth',
    type: 'boolean',
    help: ['participants sign in with OAuth through the host instead (rimthan serve --oauth-issuer ...)'],
  },
  {
    name: 'oauth-client-id',
    type: 'string',
    value: 'ID',
    help: [
      'with --oauth: a client id registered with the identity provider (default: the host registers',
      'itself dynamically)',
    ],
  },
];

/** What only the Claude Code rollout takes. */
export const ROLLOUT_CLAUDE_CODE_ONLY: OptionTable = [
  {
    name: 'oauth-callback-port',
    type: 'string',
    value: 'N',
    help: [
      'claude-code, with --oauth: the fixed local port of the OAuth callback (for a pre-registered',
      'redirect URI)',
    ],
  },
  {
    name: 'marketplace-source',
    type: 'string',
    value: 'SOURCE',
    help: [
      "claude-code: where participants' Claude Code reads the marketplace from, as the managed settings",
      'declare it: an absolute folder path (default: DIR), OWNER/REPO (GitHub) or a Git URL',
    ],
  },
];

/** `rollout claude-code`. */
export const ROLLOUT_CLAUDE_CODE_OPTIONS: OptionTable = [...ROLLOUT_COMMON_OPTIONS, ...ROLLOUT_CLAUDE_CODE_ONLY];
/** `rollout codex`. */
export const ROLLOUT_CODEX_OPTIONS: OptionTable = ROLLOUT_COMMON_OPTIONS;
