// What printReply keeps of a reply: a reply printed as it arrives is not kept (no `content`); one
// collected for --json or --fields is held up to its cap (held-reply.ts); and a stdout that takes its
// text slower than the reply comes (a pipe to a slow reader) holds the reading back, so what waits
// to be written stays small instead of growing with the reply.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { HeldReply } from '../../src/cli/chat/held-reply.js';
import { printReply } from '../../src/cli/chat/print-reply.js';
import type { ReplyEvent } from '../../src/cli/chat/types.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { InterruptedError, ReplyTooLargeError } from '../../src/core/errors.js';
import { bareContext } from '../helpers/context.js';

const quiet = { write: () => true, isTTY: false };
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A pipe whose reader takes what was written only when the test says so (`take`). */
class SlowPipe extends EventEmitter {
  readonly isTTY = false;
  writableNeedDrain = false;
  written = '';

  write(text: string): boolean {
    this.written += text;
    this.writableNeedDrain = true;
    return false;
  }

  take(): void {
    this.writableNeedDrain = false;
    this.emit('drain');
  }
}

describe('printReply: what it keeps', () => {
  it('a reply printed as it arrives is not kept', async () => {
    const out: string[] = [];
    const ctx = bareContext({ stdout: { write: (s: string) => (out.push(s), true), isTTY: false }, stderr: quiet });
    const reply = await printReply(
      ctx,
      (async function* (): AsyncGenerator<ReplyEvent> {
        yield { type: 'text', text: 'Hello' };
        yield { type: 'done' };
      })(),
    );
    expect(out.join('')).toBe('Hello\n');
    expect(reply.content).toBeUndefined();
  });

  it('a stdout that holds more than it takes: nothing more of the reply is read until it has taken it', async () => {
    const pipe = new SlowPipe();
    const ctx = bareContext({ stdout: pipe, stderr: quiet });
    const pieces = Array.from({ length: 40 }, (_, i) => `piece ${i} `);
    let pulled = 0;
    const source = (async function* (): AsyncGenerator<ReplyEvent> {
      for (const text of pieces) {
        pulled++;
        await nextTurn(); // each piece in a read of its own, as from a socket
        yield { type: 'text', text };
      }
      yield { type: 'done' };
    })();
    const printing = printReply(ctx, source);
    for (let i = 0; i < 20; i++) await nextTurn();
    const stalled = pulled;
    expect(stalled).toBeLessThan(4);
    for (let i = 0; i < 20; i++) await nextTurn();
    expect(pulled).toBe(stalled);
    // the reader takes what it is given, each time: the rest follows, all of it
    const reader = setInterval(() => pipe.take(), 1);
    await printing.finally(() => clearInterval(reader));
    expect(pipe.written).toBe(`${pieces.join('')}\n`);
  });

  it('Ctrl-C while it waits for such a stdout: the wait ends, and the reply with it', async () => {
    const pipe = new SlowPipe();
    const ctx = bareContext({ stdout: pipe, stderr: quiet });
    const interrupt = new AbortController();
    const source = (async function* (): AsyncGenerator<ReplyEvent> {
      for (;;) {
        await nextTurn();
        // as the reader of a response does once Ctrl-C aborted its request
        if (interrupt.signal.aborted) throw new InterruptedError();
        yield { type: 'text', text: 'more ' };
      }
    })();
    let outcome: unknown = 'still waiting';
    void printReply(ctx, source, { interrupt: interrupt.signal }).then(
      () => (outcome = 'done'),
      (err: unknown) => (outcome = err),
    );
    for (let i = 0; i < 10; i++) await nextTurn();
    interrupt.abort(new InterruptedError());
    for (let i = 0; i < 10; i++) await nextTurn();
    expect(outcome).toBeInstanceOf(InterruptedError);
  });
});

describe('HeldReply: a collected reply, held up to a cap', () => {
  it('holds the pieces within the cap, counted in bytes of UTF-8 (what printing it takes), not characters', () => {
    const held = new HeldReply('--json', 9);
    held.add('né'); // 3 bytes
    held.add('日本'); // 6 bytes: 9 in all, the cap
    expect(held.text).toBe('né日本');
  });

  it('past the cap: exit 7 naming the option and what to do instead, and what was held dropped', () => {
    const held = new HeldReply('--fields', 9);
    held.add('né日本');
    const err = (() => {
      try {
        held.add('!');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ReplyTooLargeError);
    expect(exitCodeFor(err)).toBe(EXIT.service);
    expect(err).toMatchObject({
      message: 'the reply is longer than the 9 bytes --fields holds whole',
      hint: 'leave out --fields to have it printed as it arrives, at any length',
    });
    expect(held.text).toBeUndefined();
  });
});
