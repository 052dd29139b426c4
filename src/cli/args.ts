/**
 * Argument parsing on `node:util` parseArgs, with every parse problem turned into a UsageError naming the help topic.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  readonly values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  readonly positionals: string[];
}

/** Strict parse (unknown options are usage errors); `--help` is always accepted. */
export function parseCommand(argv: readonly string[], options: OptionSpec, topic: string): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (error) {
    throw new UsageError(parseProblem(error), topic);
  }
}

/**
 * Our own words for a parseArgs refusal (its messages quote unevenly: `as in '-- "--bogus"`): the option it names and
 * what is wrong with it.
 */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const code = (error as { code?: unknown }).code;
  // The quoted part names the option: '--bogus', '--port <value>', '-h, --help'; prefer its long form.
  const names = /'(-[^']*)'/.exec(message)?.[1]?.match(/-{1,2}[A-Za-z0-9][\w-]*/g) ?? [];
  const option = names.find((n) => n.startsWith('--')) ?? names[0];
  if (option !== undefined) {
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      return `unknown option ${option} (an argument that starts with - goes after --, as in: -- ${option})`;
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      return / argument missing/.test(message) ? `${option} needs a value` : `${option} takes no value`;
    }
  }
  return 'invalid arguments';
}

/** A string option's value, or undefined. */
export function stringOption(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable string option's values. */
export function stringList(parsed: Parsed, name: string): string[] {
  const value = parsed.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** A one-of-these option; anything else is a usage error. */
export function choiceOption<T extends string>(
  parsed: Parsed,
  name: string,
  choices: readonly T[],
  fallback: T,
  topic: string,
): T {
  const value = stringOption(parsed, name);
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')}`, topic);
  }
  return value as T;
}

/** An integer option within [min, max]; anything else is a usage error. */
export function intOption(parsed: Parsed, name: string, min: number, max: number, topic: string): number | undefined {
  const value = stringOption(parsed, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`, topic);
  }
  return Number(value);
}

/** Exactly `count` positionals (after the command words), else a usage error naming `what`. */
export function positionals(parsed: Parsed, count: number, what: string, topic: string): string[] {
  if (parsed.positionals.length !== count) throw new UsageError(`expected ${what}`, topic);
  return parsed.positionals;
}
