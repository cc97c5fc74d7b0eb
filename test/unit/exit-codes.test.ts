// Every row of CLI.md's exit-code table, through the one map (exitCodeForStatus / exitCodeFor).
import { describe, expect, it } from 'vitest';
import { ApiStatusError, ConnectionError, statusError } from '../../src/api/errors.js';
import {
  AuthError,
  CliError,
  ConflictError,
  EXIT,
  InterruptedError,
  NotFoundError,
  ServiceError,
  UsageError,
  exitCodeFor,
  exitCodeForStatus,
} from '../../src/cli/errors.js';
import { ISSUES_URL, reportError } from '../../src/cli/report.js';
import type { OutStream } from '../../src/ui/printer.js';

describe('EXIT: the codes of CLI.md', () => {
  it('names every row with its number', () => {
    expect(EXIT).toEqual({
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
    });
  });
});

describe('exitCodeForStatus: HTTP status → exit code', () => {
  it.each([
    // 2 usage: answered 400, 413 or 415 by the service
    [400, 2],
    [413, 2],
    [415, 2],
    // 3 authentication: 401 / 403
    [401, 3],
    [403, 3],
    // 4 not found
    [404, 4],
    // 5 rate limited
    [429, 5],
    // 6 conflict
    [409, 6],
    // 7 service: 5xx, 504
    [500, 7],
    [501, 7],
    [502, 7],
    [503, 7],
    [504, 7],
    [599, 7],
  ])('%i → %i', (status, code) => {
    expect(exitCodeForStatus(status)).toBe(code);
  });

  it.each([405, 410, 418, 451])('%i, which CLI.md does not list, is unexpected (1)', (status) => {
    expect(exitCodeForStatus(status)).toBe(1);
  });
});

describe('exitCodeFor: failure → exit code', () => {
  it.each<[string, unknown, number]>([
    ['a bug (a plain Error)', new Error('boom'), 1],
    ['a bug (a thrown string)', 'boom', 1],
    ['a bug (undefined)', undefined, 1],
    ['a usage error caught before any request', new UsageError('--name needs a value'), 2],
    ['a 400 from the service', statusError(400, { message: ['a', 'b'] }), 2],
    ['a 413 from the service', statusError(413, undefined), 2],
    ['a 415 from the service', statusError(415, undefined), 2],
    ['no key', new AuthError('no API key for http://x'), 3],
    ['a 401', statusError(401, { message: 'Invalid or revoked API key' }), 3],
    ['a 403', statusError(403, { error: { message: 'nope', type: 'forbidden' } }), 3],
    ['an <agent> reference matching none or several', new NotFoundError("no agent matches 'abcd'"), 4],
    ['a 404', statusError(404, { message: 'Agent not found' }), 4],
    ['a 429 after the retries', statusError(429, { message: 'Rate limit exceeded' }, undefined, 30), 5],
    ['a conflict', new ConflictError('Agent is not running'), 6],
    ['a 409', statusError(409, { message: 'Agent is not running' }), 6],
    ['a 500', statusError(500, undefined), 7],
    ['a 504', statusError(504, { error: { message: 'Query timeout', type: 'timeout' } }), 7],
    ['a time-out', new ConnectionError('no answer from http://x within 30 s', 'raise the limit with --timeout SECONDS'), 7],
    ['connection refused', new ConnectionError('cannot reach http://x: connection refused', undefined, 'ECONNREFUSED'), 7],
    ['a stream cut short', new ServiceError('the stream ended before the answer was complete'), 7],
    ['unhealthy', new CliError('agent reports healthy: false', EXIT.unhealthy), 8],
    ['Ctrl-C', new InterruptedError(), 130],
  ])('%s → %i', (_what, err, code) => {
    expect(exitCodeFor(err)).toBe(code);
  });

  it('an ApiStatusError takes its code from the status', () => {
    const e = new ApiStatusError(429, 'Rate limit exceeded');
    expect(e).toBeInstanceOf(CliError);
    expect(e.exitCode).toBe(5);
  });
});

describe('reportError: one line on stderr and the exit code', () => {
  function capture(): { stream: OutStream; text: () => string } {
    let text = '';
    return { stream: { write: (s) => ((text += s), true) }, text: () => text };
  }

  it('a CliError: message and hint, its code', () => {
    const err = capture();
    const code = reportError(new NotFoundError("no agent matches 'zzzz'", "run 'superagent list'"), err.stream, { json: false, debug: false });
    expect(code).toBe(4);
    expect(err.text()).toBe("Error: no agent matches 'zzzz' (run 'superagent list')\n");
  });

  it('an unexpected error exits 1 and says how to report it', () => {
    const err = capture();
    const code = reportError(new TypeError('x is undefined'), err.stream, { json: false, debug: false });
    expect(code).toBe(1);
    expect(err.text()).toContain('x is undefined');
    expect(err.text()).toContain(ISSUES_URL);
  });

  it('with --json also writes the error object with its exit code', () => {
    const err = capture();
    const code = reportError(statusError(409, { message: 'Agent is paused' }), err.stream, { json: true, debug: false });
    expect(code).toBe(6);
    const lines = err.text().trim().split('\n');
    expect(JSON.parse(lines[1]!)).toEqual({ error: { message: 'Agent is paused', exit_code: 6 } });
  });
});
