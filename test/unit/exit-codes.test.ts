// Every row of docs/cli.md's exit-code table (Exit codes), through the one map (src/cli/exit-codes.ts): each error
// class of src/core/errors.ts and src/api/errors.ts, the class statusError picks for each status,
// and how a failure is reported on stderr.
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/errors.js';
import { EXIT, ISSUES_URL, errorLine, exitCodeFor, isExpected, reportError } from '../../src/cli/exit-codes.js';
import * as core from '../../src/core/errors.js';
import type { OutStream } from '../../src/ui/printer.js';

describe('EXIT: the documented exit codes', () => {
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
      changesPending: 9,
      breached: 10,
      hangup: 129,
      interrupted: 130,
      terminated: 143,
    });
  });
});

type AnyClass = abstract new (...args: never[]) => Error;

/** What docs/cli.md (Exit codes) says each class means. A class added to either file without a row here fails below. */
const CODES = new Map<AnyClass, number>([
  [core.UsageError, 2],
  [core.LocalStateError, 2],
  [core.EnvironmentError, 2],
  [core.CredentialsError, 3],
  [core.NoMatchError, 4],
  [core.StateConflictError, 6],
  [core.BadAnswerError, 7],
  // a reply longer than --json or --fields holds whole: the service's answer, not the user's input
  [core.ReplyTooLargeError, 7],
  [core.UnhealthyError, 8],
  [core.InterruptedError, 130],
  // 128 + the signal's number, as a shell reports it (SIGHUP: 129, below)
  [core.TerminatedError, 143],
  // the base class alone is no row of the table: thrown bare it is a bug
  [core.SuperagentError, 1],
  [api.ApiError, 7],
  [api.BadRequestError, 2],
  [api.ProviderNotConnectedError, 2],
  [api.AuthError, 3],
  [api.NotFoundError, 4],
  [api.SessionNotFoundError, 4],
  [api.ConflictError, 6],
  [api.AgentPausedError, 6],
  [api.DuplicateNameError, 6],
  [api.AgentLimitError, 6],
  [api.RateLimitError, 5],
  [api.ServerError, 7],
  [api.ConnectionError, 7],
  [api.TimeoutError, 7],
  [api.StreamCutError, 7],
  [api.NotTheServiceError, 7],
]);

/** An instance of any of the classes, whatever its constructor takes. */
function instance(cls: AnyClass): Error {
  if (cls === core.InterruptedError) return new core.InterruptedError();
  if (cls === core.TerminatedError) return new core.TerminatedError();
  if (cls === api.RateLimitError) return new api.RateLimitError('Rate limit exceeded', undefined, 429, 'rid', 3);
  if (cls === core.EnvironmentError) return new core.EnvironmentError('/data/records', 'ENOSPC', 'cannot write');
  return new (cls as unknown as new (message: string, hint?: string) => Error)('something failed', 'do this');
}

const classesOf = (mod: Record<string, unknown>) =>
  Object.entries(mod).filter(
    (e): e is [string, AnyClass] => typeof e[1] === 'function' && e[1].prototype instanceof Error,
  );

describe('exitCodeFor: every error class → its documented code', () => {
  it('every class of the two files has a row', () => {
    const all = [...classesOf(core), ...classesOf(api)];
    expect(all.length).toBe(CODES.size);
    for (const [name, cls] of all) expect(CODES.has(cls), name).toBe(true);
  });

  it.each([...CODES].map(([cls, code]) => [cls.name, code, cls] as const))('%s → %i', (_name, code, cls) => {
    expect(exitCodeFor(instance(cls))).toBe(code);
  });

  it('a subclass gets its own code, not the one of the class it extends (the map lists subclasses first)', () => {
    const pairs = [...CODES.keys()].flatMap((child) =>
      [...CODES.keys()]
        .filter((parent) => parent !== child && child.prototype instanceof parent)
        .map((parent) => [child, parent] as const),
    );
    // the pairs that matter: every API class under ApiError (7), and the 404/409 subclasses
    expect(pairs.length).toBeGreaterThanOrEqual(13);
    for (const [child] of pairs) expect(exitCodeFor(instance(child)), child.name).toBe(CODES.get(child));
  });

  it('a class of our own deriving from a mapped one takes its code', () => {
    class MissingFileError extends core.UsageError {}
    class ProxyError extends api.ApiError {}
    expect(exitCodeFor(new MissingFileError('no such file'))).toBe(2);
    expect(exitCodeFor(new ProxyError('bad gateway at the proxy'))).toBe(7);
  });

  it.each<[string, unknown]>([
    ['a plain Error', new Error('boom')],
    ['a TypeError', new TypeError('x is undefined')],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
    ['null', null],
  ])('%s is a bug: 1', (_what, err) => {
    expect(exitCodeFor(err)).toBe(1);
    expect(isExpected(err)).toBe(false);
  });

  it('isExpected: a failure the user can act on', () => {
    expect(isExpected(new core.UsageError('x'))).toBe(true);
    expect(isExpected(new api.ServerError('x'))).toBe(true);
    expect(isExpected(new core.SuperagentError('x'))).toBe(false);
  });

  it('rephrased keeps the class, so the code, and the hint unless given another', () => {
    const err = core.rephrased(
      new api.NotFoundError('Agent not found', "run 'superagent list'", 404),
      "no agent 'zzzz'",
    );
    expect(err).toBeInstanceOf(api.NotFoundError);
    expect([exitCodeFor(err), err.message, err.hint, err.status]).toEqual([
      4,
      "no agent 'zzzz'",
      "run 'superagent list'",
      404,
    ]);
    expect(core.rephrased(err, 'other', 'new hint').hint).toBe('new hint');
  });
});

describe('statusError: the class for each status', () => {
  it.each<[number, unknown, AnyClass, number]>([
    [400, { message: ['a', 'b'] }, api.BadRequestError, 2],
    [413, undefined, api.BadRequestError, 2],
    [415, undefined, api.BadRequestError, 2],
    [431, undefined, api.BadRequestError, 2],
    [422, { message: 'bad' }, api.BadRequestError, 2],
    [401, { message: 'Invalid or revoked API key' }, api.AuthError, 3],
    [403, { error: { message: 'nope', type: 'forbidden' } }, api.AuthError, 3],
    [403, { message: 'This agent belongs to another API key' }, api.AuthError, 3],
    // the limit is a conflict with the agents there, not a key that may not: a script must not think its key bad
    [403, { statusCode: 403, message: 'Agent limit reached (10)' }, api.AgentLimitError, 6],
    [404, { message: 'Agent not found' }, api.NotFoundError, 4],
    [404, { message: 'Session not found' }, api.SessionNotFoundError, 4],
    [404, { message: 'Chat session expired or belongs to another agent' }, api.SessionNotFoundError, 4],
    [409, { message: 'Agent is not running' }, api.ConflictError, 6],
    [409, { message: 'Agent is paused' }, api.AgentPausedError, 6],
    [409, { message: 'Agent scout is paused; resume it first' }, api.AgentPausedError, 6],
    [409, { statusCode: 409, message: "An agent named 'scout' already exists" }, api.DuplicateNameError, 6],
    [429, { message: 'Rate limit exceeded' }, api.RateLimitError, 5],
    [500, undefined, api.ServerError, 7],
    [501, undefined, api.ServerError, 7],
    [502, undefined, api.ServerError, 7],
    [503, undefined, api.ServerError, 7],
    [504, { error: { message: 'Query timeout', type: 'timeout' } }, api.ServerError, 7],
    [599, undefined, api.ServerError, 7],
    [408, undefined, api.ServerError, 7],
    // statuses the contract does not give are the service's failure, not a bug of ours
    [405, undefined, api.ServerError, 7],
    [410, undefined, api.ServerError, 7],
    [418, undefined, api.ServerError, 7],
    [451, undefined, api.ServerError, 7],
  ])('%i %j → %O (exit %i)', (status, body, cls, code) => {
    const err = api.statusError(status, body, { requestId: 'req-7' });
    expect(err.constructor).toBe(cls);
    expect(exitCodeFor(err)).toBe(code);
    expect([err.status, err.requestId]).toEqual([status, 'req-7']);
  });

  it('the 404 of an agent is not a session one, nor the 409 of a stopped agent a paused one', () => {
    expect(api.statusError(404, { message: 'Agent not found' })).not.toBeInstanceOf(api.SessionNotFoundError);
    expect(api.statusError(409, { message: 'Agent is not running' })).not.toBeInstanceOf(api.AgentPausedError);
  });

  it('a 429 carries Retry-After in seconds, 1 when not given', () => {
    const e = api.statusError(
      429,
      { message: 'Rate limit exceeded' },
      { requestId: 'rid', retryAfter: 12 },
    ) as api.RateLimitError;
    expect([e.status, e.requestId, e.retryAfter, e.message, exitCodeFor(e)]).toEqual([
      429,
      'rid',
      12,
      'Rate limit exceeded',
      5,
    ]);
    expect((api.statusError(429, undefined) as api.RateLimitError).retryAfter).toBe(1);
    // the hint says the wait the service asked for, and when the command's budget stopped the wait, that too
    expect(e.hint).toBe('the service asks to wait 12 s before trying again');
    expect(api.statusError(429, undefined, { retryAfter: 90, waitBudget: 60 }).hint).toBe(
      'the service asks to wait 90 s before trying again: more than is ' +
        'left of the 60 s this command may wait on rate limits',
    );
  });

  it.each<[number, string | undefined]>([
    [401, "check the key: run 'superagent login', or set SUPERAGENT_API_KEY"],
    [403, 'this key may not do that'],
    [413, 'the request is too large'],
    [431, 'the API key or another header sent is far too long: copy the key again from where it was issued'],
    [429, 'wait a moment and try again'],
    [502, 'the service is having trouble; try again shortly'],
    [503, 'the service is having trouble; try again shortly'],
    [504, 'the service took too long; try again, or raise --timeout'],
    [500, 'the service failed; try again later'],
    [599, 'the service failed; try again later'],
    [400, undefined],
    [404, undefined],
    [409, undefined],
  ])('%i: hint %j', (status, hint) => {
    expect(api.statusError(status, undefined).hint).toBe(hint);
  });

  it('a connection failure carries its code and hint (exit 7); a time-out is one', () => {
    const e = new api.ConnectionError('cannot reach http://x: reset', 'hint', 'ECONNRESET');
    expect([exitCodeFor(e), e.hint, e.code, e.status]).toEqual([7, 'hint', 'ECONNRESET', undefined]);
    expect(new api.TimeoutError('no answer')).toBeInstanceOf(api.ConnectionError);
  });

  it('an empty body says the status', () => {
    expect(api.statusError(409, undefined).message).toBe('the service answered 409');
  });
});

describe('messageFromBody: both error shapes of the contract', () => {
  it.each<[unknown, string]>([
    [
      { statusCode: 400, message: ['name is required', 'model_provider must be one of: openai'] },
      'name is required; model_provider must be one of: openai',
    ],
    [{ statusCode: 404, message: 'Agent not found', error: 'Not Found' }, 'Agent not found'],
    [{ error: { message: 'x', type: 'y' } }, 'x'],
    [{ error: 'Bad Gateway' }, 'Bad Gateway'],
    ['  plain text  ', 'plain text'],
    [{}, 'fallback'],
    [null, 'fallback'],
    [undefined, 'fallback'],
    [{ message: '' }, 'fallback'],
  ])('%j → %s', (body, expected) => {
    expect(api.messageFromBody(body, 'fallback')).toBe(expected);
  });

  it('cuts a long text body to 300 characters', () => {
    expect(api.messageFromBody('e'.repeat(1000), 'f')).toHaveLength(300);
  });
});

describe('reportError: one line on stderr, and the exit code', () => {
  function capture(): { stream: OutStream; text: () => string } {
    let text = '';
    return { stream: { write: (s) => ((text += s), true) }, text: () => text };
  }
  const plain = { json: false, debug: false };

  it('errorLine: the message, and the hint in parentheses', () => {
    expect(errorLine(new core.NoMatchError("no agent matches 'zzzz'", "run 'superagent list'"))).toBe(
      "no agent matches 'zzzz' (run 'superagent list')",
    );
    expect(errorLine(new core.UsageError('--name needs a value'))).toBe('--name needs a value');
    expect(errorLine(new TypeError('x is undefined'))).toBe('x is undefined');
    expect(errorLine('thrown text')).toBe('thrown text');
  });

  it('an expected failure: exactly its line, its code', () => {
    const err = capture();
    expect(
      reportError(new core.NoMatchError("no agent matches 'zzzz'", "run 'superagent list'"), err.stream, plain),
    ).toBe(4);
    expect(err.text()).toBe("Error: no agent matches 'zzzz' (run 'superagent list')\n");
  });

  it('Ctrl-C: 130, quiet: a newline on a terminal (ending the interrupted line), nothing piped', () => {
    const piped = capture();
    expect(reportError(new core.InterruptedError(), piped.stream, plain)).toBe(130);
    expect(piped.text()).toBe('');
    const tty = capture();
    expect(reportError(new core.InterruptedError(), { ...tty.stream, isTTY: true }, plain)).toBe(130);
    expect(tty.text()).toBe('\n');
  });

  it('Ctrl-C a command explained: its words, without "Error:"', () => {
    const err = capture();
    const told = core.rephrased(
      new core.InterruptedError(),
      'Interrupted; soul.md not uploaded, your edit is kept in /tmp/x.md',
      'upload it with: y',
    );
    expect(reportError(told, err.stream, plain)).toBe(130);
    expect(err.text()).toBe('Interrupted; soul.md not uploaded, your edit is kept in /tmp/x.md (upload it with: y)\n');
  });

  it('Ctrl-C with --json: the error object on stderr', () => {
    const err = capture();
    expect(reportError(new core.InterruptedError(), err.stream, { json: true, debug: false })).toBe(130);
    expect(JSON.parse(err.text())).toEqual({ error: { message: 'Interrupted', exit_code: 130 } });
  });

  it('SIGTERM and SIGHUP: 143 and 129, as quiet as Ctrl-C unless a command explained', () => {
    const tty = capture();
    expect(reportError(new core.TerminatedError(), { ...tty.stream, isTTY: true }, plain)).toBe(143);
    expect(reportError(new core.TerminatedError('SIGHUP'), { ...tty.stream, isTTY: true }, plain)).toBe(129);
    expect(tty.text()).toBe('\n\n');
    const told = capture();
    expect(
      reportError(
        core.rephrased(new core.TerminatedError(), 'Terminated; your edit is kept in /tmp/x.md'),
        told.stream,
        plain,
      ),
    ).toBe(143);
    expect(told.text()).toBe('Terminated; your edit is kept in /tmp/x.md\n');
  });

  it('a bug: exit 1, and how to report it', () => {
    const err = capture();
    expect(reportError(new TypeError('x is undefined'), err.stream, plain)).toBe(1);
    expect(err.text()).toBe(
      `Error: unexpected error: x is undefined. This is a bug: please report it at ` +
        `${ISSUES_URL} with the output of the same command run with --debug\n`,
    );
  });

  it('a bug with --debug also prints the stack; an expected failure never does', () => {
    const bug = capture();
    const boom = new TypeError('x is undefined');
    reportError(boom, bug.stream, { json: false, debug: true });
    expect(bug.text()).toContain(`\n${boom.stack}\n`);
    const known = capture();
    reportError(new core.UsageError('bad'), known.stream, { json: false, debug: true });
    expect(known.text()).toBe('Error: bad\n');
  });

  it('with --json, also the error as a JSON object with its exit code', () => {
    const err = capture();
    const code = reportError(api.statusError(409, { message: 'Agent is paused' }), err.stream, {
      json: true,
      debug: false,
    });
    expect(code).toBe(6);
    expect(err.text().split('\n')).toEqual([
      'Error: Agent is paused',
      JSON.stringify({ error: { message: 'Agent is paused', exit_code: 6 } }),
      '',
    ]);
  });

  it('with --json, a bug says so in the object too', () => {
    const err = capture();
    reportError(new Error('boom'), err.stream, { json: true, debug: false });
    const object = JSON.parse(err.text().split('\n')[1]!);
    expect(object.error.exit_code).toBe(1);
    expect(object.error.message).toMatch(/^unexpected error: boom\. This is a bug/);
  });

  it('the label is coloured by the colour given', () => {
    const err = capture();
    reportError(new core.UsageError('bad'), err.stream, { ...plain, colour: (s) => `<red>${s}</red>` });
    expect(err.text()).toBe('<red>Error:</red> bad\n');
  });
});
