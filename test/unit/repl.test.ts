// The REPL loop (src/cli/repl/repl.ts) against a fake SendFn and fake streams: a fake terminal on
// stdin (readline in raw mode, keys as bytes), stdout and stderr captured apart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { printReply } from '../../src/cli/chat/print-reply.js';
import type { ReplyEvent, SendFn, SendOptions } from '../../src/cli/chat/types.js';
import type { Context } from '../../src/cli/context.js';
import { StreamCutError } from '../../src/api/errors.js';
import { TerminatedError } from '../../src/core/errors.js';
import { loadHistory, saveHistory } from '../../src/cli/repl/history.js';
import { CANCELLED, LEAVE_HINT, runRepl, type ReplOptions, type SlashCommand } from '../../src/cli/repl/repl.js';
import { Printer } from '../../src/ui/printer.js';
import { Capture } from '../helpers/context.js';

const ENTER = '\r';
const CTRL_C = '\x03';
const CTRL_D = '\x04';
const UP = '\x1b[A';

class FakeTerminal extends PassThrough {
  isTTY = true;
  isRaw = false;
  setRawMode(on: boolean): this {
    this.isRaw = on;
    return this;
  }
}

interface Call {
  message: string;
  sessionId: string | undefined;
  signal: AbortSignal;
}

/** A sender that answers "reply to <message>" in two pieces, in session s-<n>, recording each call. */
function echoSender(calls: Call[]): SendFn {
  return async function* (message: string, opts: SendOptions): AsyncGenerator<ReplyEvent> {
    calls.push({ message, sessionId: opts.sessionId, signal: opts.signal });
    const sessionId = opts.sessionId ?? `s-${calls.length}`;
    yield { type: 'session', sessionId };
    yield { type: 'text', text: 'reply to ' };
    yield { type: 'text', text: message };
    yield { type: 'done', sessionId };
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

async function until(what: string, ok: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

function startRepl(options: Partial<ReplOptions> & { send: SendFn; tty?: boolean; columns?: number }) {
  const input = options.tty === false ? Object.assign(new PassThrough(), { isTTY: false }) : new FakeTerminal();
  const stdout = new Capture(true, options.columns ?? 100);
  const stderr = new Capture(true, options.columns ?? 100);
  const printer = new Printer(stdout, stderr, { json: false, quiet: false, color: false, env: {} });
  // the loop's own behaviour: replies as they come (Markdown rendering has tests of its own)
  const ctx = { printer, globals: { raw: true } } as unknown as Context;
  const done = runRepl({
    input,
    output: stderr,
    printer,
    label: 'demo',
    render: (events, hooks) => printReply(ctx, events, hooks),
    ...options,
  });
  let code: number | undefined;
  // a test that expects the REPL to end with an error awaits `done` itself: this copy ignores it
  done.then(
    (c) => (code = c),
    () => undefined,
  );
  return {
    input,
    stdout,
    stderr,
    done,
    get exited() {
      return code !== undefined;
    },
    type: async (keys: string) => {
      input.write(keys);
      await tick();
    },
  };
}

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'repl-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('slash commands: a table', () => {
  it(
    '/help and the intro are wrapped on words to the terminal ' + '(the terminal would cut a word at its edge)',
    async () => {
      const r = startRepl({
        send: echoSender([]),
        columns: 50,
        intro:
          'Market-intelligence assistant (gpt-4o). Answers can take minutes: ' +
          'Ctrl-C cancels one, /help lists the commands, Ctrl-D leaves.',
      });
      await r.type('/help' + ENTER);
      await until('help', () => r.stdout.text.includes('Keys and input'));
      const lines = (r.stdout.text + r.stderr.text).split('\n').map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));
      for (const line of lines) expect(line.length, line).toBeLessThan(50);
      expect(r.stdout.text).toContain('put lines between """ and """');
      expect(r.stderr.text).toMatch(/\/help lists\n?the/);
      await r.type('/exit' + ENTER);
      expect(await r.done).toBe(0);
    },
  );

  it(
    'lists every command in /help, runs table commands with ' + 'their argument, names unknown ones, leaves on /exit',
    async () => {
      const calls: Call[] = [];
      const echo: SlashCommand = {
        name: 'echo',
        args: '<text>',
        summary: 'print the text',
        run: (arg, s) => s.printer.data(`[${arg}]`),
      };
      const r = startRepl({ send: echoSender(calls), commands: [echo] });
      await r.type('/help' + ENTER);
      await until('help', () => r.stdout.text.includes('/echo <text>'));
      for (const name of ['/help', '/new', '/session', '/exit', '/echo <text>', 'print the text'])
        expect(r.stdout.text).toContain(name);
      await r.type('/echo  hello there ' + ENTER);
      await until('echo', () => r.stdout.text.includes('[hello there]'));
      await r.type('/nope' + ENTER);
      await until('unknown', () => r.stderr.text.includes("Unknown command '/nope'; /help lists the commands"));
      expect(calls).toHaveLength(0); // none of those was sent as a message
      await r.type('/exit' + ENTER);
      expect(await r.done).toBe(0);
    },
  );

  it('/session shows the conversation, which continues across turns; /new starts a fresh one', async () => {
    const calls: Call[] = [];
    const r = startRepl({ send: echoSender(calls) });
    await r.type('/session' + ENTER);
    await until('no session', () => r.stderr.text.includes('No session yet'));
    await r.type('hi' + ENTER);
    await until('reply', () => r.stdout.text.includes('reply to hi\n'));
    await r.type('again' + ENTER);
    await until('second reply', () => r.stdout.text.includes('reply to again\n'));
    await r.type('/session' + ENTER);
    await until('session id', () => r.stdout.text.includes('s-1\n'));
    await r.type('/new' + ENTER);
    await r.type('fresh' + ENTER);
    await until('third reply', () => calls.length === 3 && r.stdout.text.includes('reply to fresh\n'));
    expect(calls.map((c) => [c.message, c.sessionId])).toEqual([
      ['hi', undefined],
      ['again', 's-1'],
      ['fresh', undefined],
    ]);
    await r.type(CTRL_D);
    expect(await r.done).toBe(0);
  });

  it(
    'a reply in another session than the one asked for: ' + 'said once, after the reply (not inside its line)',
    async () => {
      const send: SendFn = async function* () {
        yield { type: 'session', sessionId: 'new-sess' };
        yield { type: 'text', text: 'First part ' };
        await tick();
        yield { type: 'text', text: 'and the end' };
        yield { type: 'done', sessionId: 'new-sess' };
      };
      const r = startRepl({ send, sessionId: 'old-sess' });
      let replyWhenSaid: string | undefined;
      const write = r.stderr.write.bind(r.stderr);
      r.stderr.write = (chunk: string) => {
        if (chunk.includes('did not continue')) replyWhenSaid = r.stdout.text;
        return write(chunk);
      };
      await r.type('hello' + ENTER);
      await until('the warning', () => replyWhenSaid !== undefined);
      expect(replyWhenSaid).toBe('First part and the end\n');
      await r.type(CTRL_D);
      expect(await r.done).toBe(0);
    },
  );

  it('starts in the session given, and `//text` sends "/text"', async () => {
    const calls: Call[] = [];
    const r = startRepl({ send: echoSender(calls), sessionId: 'given' });
    await r.type('//help me' + ENTER);
    await until('reply', () => calls.length === 1);
    expect(calls[0]).toMatchObject({ message: '/help me', sessionId: 'given' });
    await r.type(CTRL_D);
    await r.done;
  });
});

describe('multi-line input', () => {
  it('joins lines ending in \\ and lines between """ and """, with a continuation prompt', async () => {
    const calls: Call[] = [];
    const r = startRepl({ send: echoSender(calls) });
    await r.type('first\\' + ENTER);
    await r.type('second\\' + ENTER);
    expect(calls).toHaveLength(0);
    expect(r.stderr.text).toContain('… ');
    await r.type('third' + ENTER);
    await until('joined', () => calls.length === 1);
    expect(calls[0]!.message).toBe('first\nsecond\nthird');

    await r.type('"""' + ENTER);
    await r.type('  indented line' + ENTER);
    await r.type('' + ENTER);
    await r.type('ends here"""' + ENTER);
    await until('block', () => calls.length === 2);
    expect(calls[1]!.message).toBe('  indented line\n\nends here');

    await r.type('"""one line"""' + ENTER);
    await until('inline block', () => calls.length === 3);
    expect(calls[2]!.message).toBe('one line');
    await r.type(CTRL_D);
    expect(await r.done).toBe(0);
  });
});

describe('history', () => {
  it(
    'is written 0600 in a 0700 directory, capped to the newest ' + 'lines, and recalled with the up arrow next time',
    async () => {
      const file = path.join(tmp(), 'history', 'chat-abc');
      const calls: Call[] = [];
      const r = startRepl({ send: echoSender(calls), historyFile: file, historySize: 3 });
      for (const m of ['m1', 'm2', 'm3', 'm4', 'm5']) {
        await r.type(m + ENTER);
        await until(m, () => r.stdout.text.includes(`reply to ${m}\n`));
      }
      await r.type(CTRL_D);
      await r.done;
      expect(fs.readFileSync(file, 'utf8')).toBe('m3\nm4\nm5\n');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);

      const again: Call[] = [];
      const r2 = startRepl({ send: echoSender(again), historyFile: file, historySize: 3 });
      await r2.type(UP + UP + ENTER);
      await until('recalled', () => again.length === 1);
      expect(again[0]!.message).toBe('m4');
      await r2.type(CTRL_D);
      await r2.done;
      expect(fs.readFileSync(file, 'utf8')).toBe('m3\nm5\nm4\n');
    },
  );

  it('a message typed over several lines is one entry, recalled and sent again exactly as it was sent', async () => {
    const file = path.join(tmp(), 'history', 'chat-multi');
    const calls: Call[] = [];
    const r = startRepl({ send: echoSender(calls), historyFile: file });
    await r.type('first line \\' + ENTER);
    await r.type('second line' + ENTER);
    await until('continued', () => calls.length === 1);
    await r.type('"""' + ENTER + 'in a block' + ENTER + '"""' + ENTER);
    await until('block', () => calls.length === 2);
    await r.type(UP + UP + ENTER);
    await until('recalled continued', () => calls.length === 3);
    await r.type(UP + UP + ENTER);
    await until('recalled block', () => calls.length === 4);
    expect(calls.map((c) => c.message)).toEqual([
      'first line \nsecond line',
      'in a block',
      'first line \nsecond line',
      'in a block',
    ]);
    await r.type(CTRL_D);
    await r.done;
    // on disk, one line per message: its breaks as ⏎, without the \\ or """ that joined them
    expect(fs.readFileSync(file, 'utf8')).toBe('first line ⏎second line\nin a block\n');
  });

  it('loadHistory/saveHistory: newest first in memory, oldest first on disk, a missing file is empty', () => {
    const file = path.join(tmp(), 'h');
    expect(loadHistory(file)).toEqual([]);
    saveHistory(file, ['c', 'b', 'a'], 2);
    expect(fs.readFileSync(file, 'utf8')).toBe('b\nc\n');
    expect(loadHistory(file)).toEqual(['c', 'b']);
    expect(loadHistory(file, 1)).toEqual(['c']);
  });
});

describe('errors and Ctrl-C', () => {
  it('an error in one turn keeps what was printed, reports it, and the loop goes on', async () => {
    const calls: Call[] = [];
    const ok = echoSender(calls);
    let first = true;
    const send: SendFn = (message, opts) => {
      if (!first) return ok(message, opts);
      first = false;
      return (async function* (): AsyncGenerator<ReplyEvent> {
        yield { type: 'text', text: 'partial' };
        throw new StreamCutError('the stream broke', 'try again');
      })();
    };
    const r = startRepl({ send });
    await r.type('one' + ENTER);
    await until('error', () => r.stderr.text.includes('Error: the stream broke (try again)'));
    expect(r.stdout.text).toBe('partial\n');
    await r.type('two' + ENTER);
    await until('next reply', () => r.stdout.text.includes('reply to two\n'));
    expect(r.exited).toBe(false);
    await r.type(CTRL_D);
    expect(await r.done).toBe(0);
  });

  it("explainError rewrites a failed turn's error", async () => {
    const send: SendFn = () =>
      (async function* (): AsyncGenerator<ReplyEvent> {
        yield* [];
        throw new StreamCutError('raw');
      })();
    const r = startRepl({ send, explainError: () => new StreamCutError('explained', 'do this') });
    await r.type('x' + ENTER);
    await until('explained', () => r.stderr.text.includes('Error: explained (do this)'));
    await r.type(CTRL_D);
    await r.done;
  });

  it(
    'Ctrl-C during a reply aborts it at once, even if the ' + 'sender never answers, and returns to the prompt',
    async () => {
      const calls: Call[] = [];
      const ok = echoSender(calls);
      let signal: AbortSignal | undefined;
      let first = true;
      const send: SendFn = (message, opts) => {
        if (!first) return ok(message, opts);
        first = false;
        signal = opts.signal;
        return (async function* (): AsyncGenerator<ReplyEvent> {
          yield { type: 'text', text: 'start of a long' };
          await new Promise(() => {}); // a sender that ignores the signal
        })();
      };
      const r = startRepl({ send });
      await r.type('long one' + ENTER);
      await until('first piece', () => r.stdout.text === 'start of a long');
      await r.type(CTRL_C);
      await until('cancelled', () => r.stderr.text.includes(CANCELLED));
      expect(signal!.aborted).toBe(true);
      expect(r.stdout.text).toBe('start of a long\n');
      expect(r.stderr.text).not.toContain('Error');
      await r.type('next' + ENTER);
      await until('next reply', () => r.stdout.text.includes('reply to next\n'));
      await r.type(CTRL_D);
      expect(await r.done).toBe(0);
    },
  );

  it(
    'Ctrl-C at an empty prompt says how to leave; a second one ' +
      'leaves with 0; anything typed in between disarms it',
    async () => {
      const calls: Call[] = [];
      const r = startRepl({ send: echoSender(calls) });
      await r.type(CTRL_C);
      await until('hint', () => r.stderr.text.includes(LEAVE_HINT));
      await r.type('hello' + ENTER);
      await until('reply', () => calls.length === 1);
      await r.type(CTRL_C);
      await until('second hint', () => r.stderr.text.split(LEAVE_HINT).length === 3);
      expect(r.exited).toBe(false);
      await r.type(CTRL_C);
      expect(await r.done).toBe(0);
    },
  );

  it('Ctrl-C with a line typed drops the line and the multi-line message in progress', async () => {
    const calls: Call[] = [];
    const r = startRepl({ send: echoSender(calls) });
    await r.type('start\\' + ENTER + 'abandoned');
    await r.type(CTRL_C);
    expect(r.stderr.text).toContain('^C');
    expect(r.stderr.text).not.toContain(LEAVE_HINT);
    await r.type(ENTER); // an empty line sends nothing
    await r.type('kept' + ENTER);
    await until('sent', () => calls.length === 1);
    expect(calls[0]!.message).toBe('kept');
    await r.type(CTRL_D);
    await r.done;
  });

  it('Ctrl-D during a reply leaves at once with 0', async () => {
    const send: SendFn = () =>
      (async function* (): AsyncGenerator<ReplyEvent> {
        yield { type: 'text', text: 'slow' };
        await new Promise(() => {});
      })();
    const r = startRepl({ send });
    await r.type('x' + ENTER);
    await until('piece', () => r.stdout.text === 'slow');
    await r.type(CTRL_D);
    expect(await r.done).toBe(0);
    expect(r.stdout.text).toBe('slow\n');
  });
});

describe('the prompt does not corrupt the streamed text', () => {
  it('keys typed during a reply are not echoed into it; they come back at the next prompt', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: Call[] = [];
    const ok = echoSender(calls);
    let first = true;
    const send: SendFn = (message, opts) => {
      if (!first) return ok(message, opts);
      first = false;
      return (async function* (): AsyncGenerator<ReplyEvent> {
        yield { type: 'text', text: 'piece one, ' };
        await gate;
        yield { type: 'text', text: 'piece two' };
      })();
    };
    const r = startRepl({ send });
    await r.type('go' + ENTER);
    await until('first piece', () => r.stdout.text === 'piece one, ');
    const stderrBefore = r.stderr.text;
    await r.type('zzz');
    expect(r.stderr.text).toBe(stderrBefore); // nothing drawn while the reply streams
    release();
    await until('reply end', () => r.stdout.text === 'piece one, piece two\n');
    await until('typed text back', () => r.stderr.text.slice(stderrBefore.length).includes('demo› zzz'));
    await r.type(ENTER);
    await until('sent', () => calls.length === 1);
    expect(calls[0]!.message).toBe('zzz');
    expect(r.stdout.text).toBe('piece one, piece two\nreply to zzz\n');
    await r.type(CTRL_D);
    await r.done;
  });

  it('a whole line typed during a reply is sent after it, shown after its prompt', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls: Call[] = [];
    const ok = echoSender(calls);
    let first = true;
    const send: SendFn = (message, opts) => {
      if (!first) return ok(message, opts);
      first = false;
      return (async function* (): AsyncGenerator<ReplyEvent> {
        yield { type: 'text', text: 'wait' };
        await gate;
      })();
    };
    const r = startRepl({ send });
    await r.type('go' + ENTER);
    await until('first piece', () => r.stdout.text === 'wait');
    await r.type('queued' + ENTER);
    expect(calls).toHaveLength(0);
    release();
    await until('queued sent', () => calls.length === 1);
    expect(calls[0]!.message).toBe('queued');
    expect(r.stderr.text).toContain('demo› queued\n');
    await r.type(CTRL_D);
    await r.done;
  });
});

describe('piped input', () => {
  it('runs each line as a turn and leaves with 0 at the end of input', async () => {
    const calls: Call[] = [];
    const r = startRepl({ send: echoSender(calls), tty: false });
    r.input.end('a\nb\n/session\n');
    expect(await r.done).toBe(0);
    expect(calls.map((c) => c.message)).toEqual(['a', 'b']);
    expect(r.stdout.text).toBe('reply to a\nreply to b\ns-1\n');
  });
});

describe('the terminal hangs up', () => {
  it("its input ends (in raw mode Ctrl-D is a key): the REPL ends as on SIGHUP, not with Ctrl-D's 0", async () => {
    const r = startRepl({ send: echoSender([]) });
    await until('the prompt', () => r.stderr.text.includes('demo›'));
    Object.assign(r.input, { fd: 99 }); // a terminal device's (never used): a stand-in's end stays Ctrl-D's
    r.input.end();
    const ended = await r.done.then(String, (err: unknown) => err);
    expect(ended).toBeInstanceOf(TerminatedError);
    expect((ended as TerminatedError).signal).toBe('SIGHUP');
  });
});
