// The failures the tool reports, as classes that say what went wrong, not how to exit: only
// src/cli/exit-codes.ts turns a class into an exit code (CLI.md "Exit codes"). The HTTP layer's own
// classes, one per kind of answer, are in src/api/errors.ts and extend SuperagentError too.

/** A failure the user can act on: one line of message, and an optional hint saying what to do. */
export class SuperagentError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input caught before any request: a flag, an argument, a file, a setting. */
export class UsageError extends SuperagentError {}

/** The data dir or its state cannot be used as it is (a file where a dir should be, a corrupt store). */
export class LocalStateError extends SuperagentError {}

/** No key for the service, or a key that cannot say which service it belongs to. */
export class CredentialsError extends SuperagentError {}

/** An `<agent>` (or session) reference that matches none or several. */
export class NoMatchError extends SuperagentError {}

/** The thing is in the wrong state for what was asked (an agent already paused, say). */
export class StateConflictError extends SuperagentError {}

/** The service answered in a way the tool cannot use (not an agent record, a change not applied). */
export class BadAnswerError extends SuperagentError {}

/** A reply longer than what the tool holds whole to print it as one JSON value (--json, --fields). */
export class ReplyTooLargeError extends SuperagentError {}

/** An agent reported `healthy: false`. */
export class UnhealthyError extends SuperagentError {}

/** Ctrl-C. */
export class InterruptedError extends SuperagentError {
  /** true once the command has ended the line the interruption cut (nothing more to end) */
  lineEnded = false;

  constructor() {
    super('Interrupted');
  }
}

/** The process was asked to stop (SIGTERM), or its terminal went away (SIGHUP), and stopped cleanly. */
export class TerminatedError extends SuperagentError {
  /** true once the command has ended the line the signal cut (nothing more to end) */
  lineEnded = false;

  constructor(readonly signal: 'SIGTERM' | 'SIGHUP' = 'SIGTERM') {
    super(signal === 'SIGHUP' ? 'Hung up' : 'Terminated');
  }
}

/** The same failure (same class, so the same exit code) told in other words. */
export function rephrased<E extends SuperagentError>(err: E, message: string, hint = err.hint): E {
  const copy = Object.create(Object.getPrototypeOf(err) as object) as E;
  Object.assign(copy, err);
  Object.defineProperty(copy, 'message', { value: message, writable: true, configurable: true });
  Object.defineProperty(copy, 'hint', { value: hint, writable: true, configurable: true });
  return copy;
}
