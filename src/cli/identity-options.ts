/**
 * The identity options of `rimthan serve` (spread into its option table), apart from identity-config.ts, which acts on
 * them and loads the identity providers: parsing the options of a stdio start loads neither.
 */
export const IDENTITY_OPTIONS = {
  'token-file': { type: 'string' },
  'oauth-issuer': { type: 'string' },
  'oauth-audience': { type: 'string' },
  'oauth-jwks': { type: 'string' },
  'oauth-resource': { type: 'string' },
} as const;

/** The option names that apply only to HTTP. */
export const IDENTITY_OPTION_NAMES: readonly string[] = Object.keys(IDENTITY_OPTIONS);
