/**
 * The run store's refusal of an argument it was given (a field over its limit, a malformed cursor, a commit that breaks
 * the store's rules): code `invalid_arguments`, like every argument refusal. Its own class so the run tools can tell
 * it from a caller's bad argument: a store refusing what a tool passed it is the tool's fault, answered `unavailable`.
 */
import { RimthanError } from '../../core/errors.js';

export class StoreArgumentError extends RimthanError {
  declare readonly code: 'invalid_arguments';

  constructor(message: string) {
    super('invalid_arguments', message);
  }
}
