/** The option table of `rimthan registry test`; the usage lines of `registry --help` name each option. */
import type { OptionTable } from '../args.js';

/** `registry test DIR [--workflow ID] [--min-coverage N] [--json]`. */
export const REGISTRY_TEST_OPTIONS: OptionTable = [
  { name: 'workflow', type: 'string', value: 'ID' },
  { name: 'min-coverage', type: 'string', value: 'N', default: '0' },
  { name: 'json', type: 'boolean' },
];
