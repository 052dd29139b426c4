/**
 * `rimthan runs session-id [--token-file FILE]`: the runs-profile session id of each bearer token, as the HTTP
 * transport computes it (principalIdOf), so an operator can run `rimthan runs list --session ID` for a caller. Tokens
 * come from stdin or a token file, never from the command line, where other users could read them.
 * `rimthan runs session-id --issuer I --subject S`: the session of an OAuth principal (neither is a secret).
 */
import { principalIdOf } from '../../identity/index.js';
import { parseCommand, positionals, stringOption } from '../args.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { MAX_TOKEN_TEXT_BYTES, parseTokenLines, readTokenFile } from '../serve-config.js';
import { RUNS_SESSION_ID_OPTIONS } from './runs-options.js';

/** `runs session-id [--token-file FILE]`: one session id per token, in the order of the tokens. */
export async function runsSessionId(argv: string[], io: CliIo): Promise<void> {
  const topic = 'runs session-id';
  const parsed = parseCommand(argv, RUNS_SESSION_ID_OPTIONS, topic);
  positionals(
    parsed,
    0,
    'no arguments (a token on the command line is visible to other users: pipe it on stdin, or pass --token-file FILE)',
    topic,
  );
  const issuer = stringOption(parsed, 'issuer');
  const subject = stringOption(parsed, 'subject');
  if (issuer !== undefined || subject !== undefined) {
    if (issuer === undefined || subject === undefined || issuer === '' || subject === '') {
      throw new UsageError('--issuer and --subject go together (the OAuth issuer URL and the subject claim)', topic);
    }
    if (stringOption(parsed, 'token-file') !== undefined) {
      throw new UsageError('--token-file does not go with --issuer/--subject', topic);
    }
    io.out(principalIdOf({ kind: 'oauth', issuer, subject }));
    return;
  }
  const file = stringOption(parsed, 'token-file');
  const text =
    file === undefined
      ? ((await io.readStdin?.(MAX_TOKEN_TEXT_BYTES)) ?? Buffer.alloc(0)).toString('utf8')
      : readTokenFile(file, io);
  const tokens = parseTokenLines(text, file === undefined ? 'stdin' : `--token-file ${file}`);
  for (const token of tokens) io.out(principalIdOf({ kind: 'bearer', token }));
}
