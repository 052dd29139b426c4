/**
 * Durations written on the command line or in the environment: `<integer><s|m|h|d>` (`30d`, `12h`, `90m`, `3600s`).
 * Kept apart from the settings that use them so a runs-only command loads nothing of the guided engine.
 */

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `<integer><s|m|h|d>` into milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,10})([smhd])$/.exec(text.trim());
  if (match === null) return undefined;
  return Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN);
}
