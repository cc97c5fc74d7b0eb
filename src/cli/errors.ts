// Every failure the CLI reports, and the one map from failure to exit code (CLI.md "Exit codes").

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
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the user can act on: one line of message, an optional hint, an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint);
  }
}

export class AuthError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.auth, hint);
  }
}

export class NotFoundError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.notFound, hint);
  }
}

/** No key for a configured service (connect.ts and whoami say the same). */
export function noKeyError(baseUrl: string): AuthError {
  return new AuthError(`no API key for ${baseUrl}`, "run 'superagent login', or set SUPERAGENT_API_KEY");
}

export class ConflictError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.conflict, hint);
  }
}

export class ServiceError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, EXIT.service, hint);
  }
}

export class InterruptedError extends CliError {
  constructor() {
    super('Interrupted', EXIT.interrupted);
  }
}

/** The HTTP status → exit code rows of CLI.md, in one place. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 413 || status === 415 || status === 422) return EXIT.usage;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status === 409) return EXIT.conflict;
  if (status >= 500 || status === 408) return EXIT.service; // 408: the service's own time-out
  return EXIT.unexpected;
}

export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exitCode;
  return EXIT.unexpected;
}
