/**
 * The person at the keyboard confirms every confirmed-state value before it is sent (`answer`, the initial fields of
 * `start`, the answers file of `run`): the CLI shows the field and value and waits for "y" or "yes". `--yes` is the
 * confirmation of a person who wrote a script; without either, nothing is confirmed and nothing is sent.
 */
import type { JsonValue } from '../../core/index.js';
import type { Parsed } from '../args.js';
import { CommandFailed } from '../errors.js';
import type { CliIo } from '../io.js';

/** Asks the person to confirm `field = value`; refuses when they do not. */
export async function confirmAnswer(io: CliIo, parsed: Parsed, field: string, value: JsonValue): Promise<void> {
  if (parsed.values['yes'] === true) return;
  const shown = JSON.stringify(value);
  const line = io.ask === undefined ? undefined : await io.ask(`Confirm ${field} = ${shown}? [y/N] `);
  if (line === undefined) {
    throw new CommandFailed(
      'confirmation_required',
      `${field} was not confirmed: answer y at the prompt, or pass --yes`,
    );
  }
  if (!/^\s*y(es)?\s*$/i.test(line))
    throw new CommandFailed('not_confirmed', `${field} was not confirmed; nothing was sent`);
}
