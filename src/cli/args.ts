/**
 * Argument parsing on `node:util` parseArgs, with every parse problem turned into a UsageError naming the help topic.
 * A command's options are an option table (one row per option: name, value placeholder, description, default); the
 * parser and the help text (help.ts) both read it, so the two cannot drift.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** One option of a command: what parseArgs needs and what `--help` prints. */
export interface OptionRow {
  /** The long name, without the leading `--`. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** Repeatable: every occurrence is kept. */
  readonly multiple?: boolean;
  /** A one-letter alias (`-o`). */
  readonly short?: string;
  /** The value's placeholder in help (`--port N`); none for a flag. */
  readonly value?: string;
  /**
   * The description as printed, one string per line; none when the topic's usage lines name the option instead
   * (`rimthan runs list [--after CURSOR]`).
   */
  readonly help?: readonly string[];
  /** The value used when the option is absent, as the description names it. */
  readonly default?: string;
}

/** A command's options, in help order. */
export type OptionTable = readonly OptionRow[];

/** The parseArgs configuration of a table. */
export function optionSpec(table: OptionTable): OptionSpec {
  const spec: OptionSpec = {};
  for (const row of table) {
    spec[row.name] = {
      type: row.type,
      ...(row.multiple === true ? { multiple: true } : {}),
      ...(row.short === undefined ? {} : { short: row.short }),
    };
  }
  return spec;
}

/** The default the table gives option `name` (a programming error when it gives none). */
export function optionDefault(table: OptionTable, name: string): string {
  const value = table.find((r) => r.name === name)?.default;
  if (value === undefined) throw new Error(`the option table gives --${name} no default`);
  return value;
}

export interface Parsed {
  readonly values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  readonly positionals: string[];
}

/** Strict parse (unknown options are usage errors); `--help` is always accepted. */
export function parseCommand(argv: readonly string[], table: OptionTable, topic: string): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...optionSpec(table), help: { type: 'boolean', short: 'h' } },
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
