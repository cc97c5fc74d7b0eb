// The one map from failure to exit code (docs/cli.md "Exit codes"). Every other module raises classes
// that say what went wrong (src/core/errors.ts, src/api/errors.ts); only this file knows numbers.
import * as api from '../api/errors.js';
import * as core from '../core/errors.js';
import { maskSecrets } from '../ui/mask.js';
import { emit, type OutStream } from '../ui/printer.js';
import { jsonForTerminal } from '../ui/terminal-safe.js';

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  conflict: 6,
  service: 7,
  unhealthy: 8,
  changesPending: 9,
  breached: 10,
  /** 128 + the signal's number, as a shell reports a process the signal ended */
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each code tells a script (docs/cli.md). */
export const EXIT_MEANINGS: Readonly<Record<ExitCode, string>> = {
  0: 'success',
  1: 'unexpected error (a bug: please report it)',
  2:
    'usage: bad flag, missing argument, invalid input, or the service answered 400/413/415; also a full disk, ' +
    'a read-only file system or a permission refused under the config, data or temp dir',
  3: 'authentication: no key, or 401/403',
  4: 'not found: 404, an agent reference that matches none or several, or a setting `config get` finds unset',
  5: 'rate limited: 429 after the allowed retries',
  6:
    'conflict: 409 (a name a live agent has, pausing an agent that is not running), the agent limit, ' +
    'an agent that still holds funds (destroy)',
  7: 'service or network: 5xx, time-out, connection refused, a stream cut short',
  8: 'unhealthy: `health` found `healthy: false`',
  9: 'changes pending: `plan --detailed-exit-code` found differences',
  10: 'a limit was breached: `guard --once` found an agent past a limit (and paused it unless `--dry-run`)',
  129: 'hung up: the terminal went away (SIGHUP) during a REPL, a question or `soul edit`',
  130: 'interrupted by Ctrl-C',
  143: 'stopped by SIGTERM',
};

type ErrorClass = abstract new (...args: never[]) => Error;

/** First match wins: subclasses before the classes they extend. */
const TABLE: ReadonlyArray<readonly [ErrorClass, ExitCode]> = [
  [core.InterruptedError, EXIT.interrupted],
  [core.UsageError, EXIT.usage],
  [core.LocalStateError, EXIT.usage],
  [core.EnvironmentError, EXIT.usage],
  [api.BadRequestError, EXIT.usage],
  [core.CredentialsError, EXIT.auth],
  [api.AuthError, EXIT.auth],
  [core.NoMatchError, EXIT.notFound],
  [api.NotFoundError, EXIT.notFound],
  [api.RateLimitError, EXIT.rateLimited],
  [core.StateConflictError, EXIT.conflict],
  [api.ConflictError, EXIT.conflict],
  [core.BadAnswerError, EXIT.service],
  [core.ReplyTooLargeError, EXIT.service],
  [core.UnhealthyError, EXIT.unhealthy],
  // connection failures, time-outs, 5xx, cut streams, not the service at all
  [api.ApiError, EXIT.service],
];

/**
 * The failure as reported: a refusal of the machine (a full disk, a read-only file system) that no
 * code path named is still the user's to fix, said in words (every path is covered, wrapped or not).
 */
function asReported(err: unknown): unknown {
  return core.asEnvironmentError(err) ?? err;
}

export function exitCodeFor(err: unknown): ExitCode {
  err = asReported(err);
  if (err instanceof core.TerminatedError) return err.signal === 'SIGHUP' ? EXIT.hangup : EXIT.terminated;
  for (const [cls, code] of TABLE) if (err instanceof cls) return code;
  return EXIT.unexpected;
}

/** A failure the user can act on (as opposed to a bug, exit 1). */
export function isExpected(err: unknown): err is core.SuperagentError {
  return err instanceof core.SuperagentError && exitCodeFor(err) !== EXIT.unexpected;
}

export const ISSUES_URL = 'https://github.com/superagent-cli/superagent/issues';

/** A failure as one line: its message, and the fix in parentheses when it has one. */
/** A failure in one line: its message and hint, with any secret in them masked (the service may echo the key). */
export function errorLine(err: unknown): string {
  err = asReported(err);
  if (err instanceof core.SuperagentError) return maskSecrets(err.hint ? `${err.message} (${err.hint})` : err.message);
  return maskSecrets(err instanceof Error ? err.message : String(err));
}

/** Renders a failure on stderr (one line; plus a JSON object with --json, for scripts) and gives its exit code. */
export function reportError(
  err: unknown,
  stderr: OutStream,
  opts: { json: boolean; debug: boolean; colour?: (s: string) => string },
): ExitCode {
  const code = exitCodeFor(err);
  if (code === EXIT.interrupted || err instanceof core.TerminatedError) {
    // Ctrl-C (or a SIGTERM) needs no message: the line it interrupted (a prompt, a reply) is ended,
    // nothing more, unless a command added what the user must know (where an unsent edit is kept)
    const ended = err instanceof core.InterruptedError || err instanceof core.TerminatedError ? err.lineEnded : false;
    if (stderr.isTTY && !ended) stderr.write('\n');
    if (opts.json) writeJsonError(stderr, errorLine(err), code);
    else if (isTold(err)) emit(stderr, `${errorLine(err)}\n`);
    return code;
  }
  const line =
    code === EXIT.unexpected
      ? `unexpected error: ${errorLine(err)}. This is a bug: please report it at ` +
        `${ISSUES_URL} with the output of the same command run with --debug`
      : errorLine(err);
  const label = opts.colour ? opts.colour('Error:') : 'Error:';
  // the message may carry the service's words: made safe on a terminal like everything else
  emit(stderr, `${label} ${line}\n`);
  if (opts.debug && code === EXIT.unexpected && err instanceof Error && err.stack) emit(stderr, err.stack + '\n');
  if (opts.json) writeJsonError(stderr, line, code);
  return code;
}

/** An interruption a command explained (rephrased with more than the bare word). */
function isTold(err: unknown): boolean {
  const bare = err instanceof core.TerminatedError ? new core.TerminatedError(err.signal) : new core.InterruptedError();
  return err instanceof core.SuperagentError && (err.message !== bare.message || err.hint !== undefined);
}

/** The error as a JSON object on stderr: on a terminal, DEL and C1 escaped too. */
function writeJsonError(stderr: OutStream, message: string, code: ExitCode): void {
  const text = JSON.stringify({ error: { message, exit_code: code } }) + '\n';
  stderr.write(stderr.isTTY ? jsonForTerminal(text) : text);
}
