/**
 * Every command's option table, by its words (`serve`, `runs list`): what the command's parser accepts. help.ts prints
 * from the same rows, and test/cli/commands/help-options.test.ts proves that each option accepted is in the help and
 * back.
 */
import type { OptionTable } from '../args.js';
import { ADMIN_TABLES } from './admin-options.js';
import { CONSOLE_OPTIONS } from './console-options.js';
import { PARTICIPANT_TABLES } from './participant-options.js';
import { REGISTRY_TABLES } from './registry-options.js';
import { REGISTRY_TEST_OPTIONS } from './registry-test-options.js';
import { ROLLOUT_CLAUDE_CODE_OPTIONS, ROLLOUT_CODEX_OPTIONS } from './rollout-options.js';
import { RUNS_TABLES } from './runs-options.js';
import { SERVE_OPTIONS } from './serve-options.js';

export const OPTION_TABLES: Readonly<Record<string, OptionTable>> = {
  serve: SERVE_OPTIONS,
  console: CONSOLE_OPTIONS,
  ...REGISTRY_TABLES,
  'registry test': REGISTRY_TEST_OPTIONS,
  ...RUNS_TABLES,
  ...PARTICIPANT_TABLES,
  ...ADMIN_TABLES,
  'rollout claude-code': ROLLOUT_CLAUDE_CODE_OPTIONS,
  'rollout codex': ROLLOUT_CODEX_OPTIONS,
};
