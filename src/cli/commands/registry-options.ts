/** The option tables of `rimthan registry …`; the usage lines of `registry --help` name each option. */
import type { OptionTable } from '../args.js';

/** `registry check DIR`: no options. */
export const REGISTRY_CHECK_OPTIONS: OptionTable = [];
/** `registry build DIR --out FILE`. */
export const REGISTRY_BUILD_OPTIONS: OptionTable = [{ name: 'out', type: 'string', short: 'o', value: 'FILE' }];
/** `registry graph DIR|FILE [--workflow ID[@VERSION]]`. */
export const REGISTRY_GRAPH_OPTIONS: OptionTable = [{ name: 'workflow', type: 'string', value: 'ID[@VERSION]' }];

/** `registry init DIR --workflow ID`. */
export const REGISTRY_INIT_OPTIONS: OptionTable = [{ name: 'workflow', type: 'string', value: 'ID' }];

/** Each registry command's table, by its words. */
export const REGISTRY_TABLES: Readonly<Record<string, OptionTable>> = {
  'registry init': REGISTRY_INIT_OPTIONS,
  'registry check': REGISTRY_CHECK_OPTIONS,
  'registry build': REGISTRY_BUILD_OPTIONS,
  'registry graph': REGISTRY_GRAPH_OPTIONS,
};
