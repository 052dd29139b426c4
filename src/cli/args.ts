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
    const message =
      error instanceof Error ? (error.message.split('\n')[0] ?? 'invalid arguments') : 'invalid arguments';
    throw new UsageError(message, topic);
  }
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
