// Renders a failure on stderr: one line for people, plus a JSON object with --json (STYLE 7).
import { CliError, exitCodeFor, type ExitCode } from './errors.js';
import type { OutStream } from '../ui/printer.js';

export const ISSUES_URL = 'https://github.com/superagent-cli/superagent/issues';

/** A failure as one line: its message, and the fix in parentheses when it has one. */
export function errorLine(err: unknown): string {
  if (err instanceof CliError) return err.hint ? `${err.message} (${err.hint})` : err.message;
  return err instanceof Error ? err.message : String(err);
}

export function reportError(err: unknown, stderr: OutStream, opts: { json: boolean; debug: boolean; colour?: (s: string) => string }): ExitCode {
  const code = exitCodeFor(err);
  let line: string;
  if (err instanceof CliError) {
    line = errorLine(err);
  } else {
    line = `unexpected error: ${errorLine(err)}. This is a bug: please report it at ${ISSUES_URL} with the output of the same command run with --debug`;
  }
  const label = opts.colour ? opts.colour('Error:') : 'Error:';
  stderr.write(`${label} ${line}\n`);
  if (opts.debug && err instanceof Error && !(err instanceof CliError) && err.stack) stderr.write(err.stack + '\n');
  if (opts.json) stderr.write(JSON.stringify({ error: { message: line, exit_code: code } }) + '\n');
  return code;
}

