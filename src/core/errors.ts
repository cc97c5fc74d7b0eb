// The failures the tool reports, as classes that say what went wrong, not how to exit: only
// src/cli/exit-codes.ts turns a class into an exit code (docs/cli.md "Exit codes"). The HTTP layer's own
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

/** The machine's refusals of a file operation: what each means in words, and what the user can do. */
const ENVIRONMENT_CAUSES: Readonly<Record<string, { reason: string; hint: string }>> = {
  ENOSPC: { reason: 'the disk is full', hint: 'free some space on it, then try again' },
  EDQUOT: { reason: 'the disk quota is exceeded', hint: 'free some space within your quota, then try again' },
  EROFS: { reason: 'the file system is read-only', hint: 'use a directory on a file system you can write' },
  EACCES: { reason: 'permission denied', hint: 'check who owns it and its permissions' },
  EPERM: { reason: 'permission denied', hint: 'check who owns it and its permissions' },
  ENOTDIR: { reason: 'a part of the path is not a directory', hint: 'move the file in the way aside' },
  EISDIR: { reason: 'it is a directory', hint: 'move the directory in the way aside' },
  ELOOP: { reason: 'it is a symbolic link loop', hint: 'remove the link, or point it at a file' },
  // not errno codes: what a walk of the path found
  EDANGLING: {
    reason: 'it is a symbolic link to a path that does not exist',
    hint: 'create what the link points to, or remove the link',
  },
  ENOTMADE: { reason: 'the system takes no new directory there', hint: 'use a directory on an ordinary file system' },
};

/** What the system call was doing, in words, by call (for a failure no write site named). */
const ACTIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['cannot create the directory', ['mkdir']],
  ['cannot open', ['open']],
  ['cannot write', ['write', 'rename', 'link', 'symlink', 'copyfile', 'ftruncate', 'fsync', 'close', 'utime']],
  ['cannot remove', ['unlink', 'rmdir', 'rm']],
  ['cannot change the permissions of', ['chmod', 'fchmod', 'chown', 'fchown']],
  ['cannot read', ['read', 'scandir', 'opendir', 'readlink', 'stat', 'lstat', 'access', 'realpath']],
];

const actionOf = (syscall = '') => ACTIONS.find(([, calls]) => calls.includes(syscall))?.[0] ?? 'cannot use';

/**
 * The machine refused a file operation (a full disk, a read-only file system, no permission): the
 * user's to fix, not a bug. Its message names the file the user knows and the cause in words.
 */
export class EnvironmentError extends SuperagentError {
  /** the cause in words: "the disk is full" */
  readonly reason: string;

  constructor(
    readonly path: string | undefined,
    /** the errno code: ENOSPC, EROFS… */
    readonly code: string,
    /** what could not be done, in words: "cannot write" */
    readonly action = 'cannot use',
    /** what to do, when the caller knows better than the cause alone (which variable names another dir) */
    hint?: string,
  ) {
    const cause = ENVIRONMENT_CAUSES[code];
    super(`${action} ${path ?? 'a file'}: ${cause?.reason ?? code}`, hint ?? cause?.hint);
    this.reason = cause?.reason ?? code;
  }

  /** the disk or the quota is full: freeing space is the fix (another directory is not needed) */
  get full(): boolean {
    return this.code === 'ENOSPC' || this.code === 'EDQUOT';
  }
}

/**
 * `err` as an EnvironmentError when it is one of the machine's refusals (ENVIRONMENT_CAUSES), else
 * undefined. `at` names what the user knows when the error's own path does not (a temp file, or none).
 */
export function asEnvironmentError(
  err: unknown,
  at: { path?: string; action?: string } = {},
): EnvironmentError | undefined {
  const known = err instanceof EnvironmentError ? err : fromOtherBundle(err);
  if (known) {
    return at.path === undefined ? known : new EnvironmentError(at.path, known.code, at.action ?? known.action);
  }
  // our own classes (a ConnectionError's EACCES) say what they mean already
  if (!(err instanceof Error) || err instanceof SuperagentError) return undefined;
  const { code, syscall, path } = err as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !Object.hasOwn(ENVIRONMENT_CAUSES, code)) return undefined;
  return new EnvironmentError(at.path ?? path, code, at.action ?? actionOf(syscall));
}

/**
 * An EnvironmentError of the embedded service's bundle (built apart, with its own copy of this
 * class): the same, known by its name, so that what it says (the action) is kept.
 */
function fromOtherBundle(err: unknown): EnvironmentError | undefined {
  if (!(err instanceof Error) || err.name !== 'EnvironmentError') return undefined;
  const { path, code, action } = err as Partial<EnvironmentError>;
  if (typeof code !== 'string') return undefined;
  return new EnvironmentError(
    typeof path === 'string' ? path : undefined,
    code,
    typeof action === 'string' ? action : undefined,
  );
}

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
