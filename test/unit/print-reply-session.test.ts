// printReply tells its caller the reply's session (remembered for --continue: a file write) once the
// first text that came with it is out, so remembering never holds back a reply's first bytes; a reply
// that breaks, or brings no text before a tool call, still tells it.
import { describe, expect, it } from 'vitest';
import { StreamCutError } from '../../src/api/errors.js';
import { printReply } from '../../src/cli/chat/print-reply.js';
import type { ReplyEvent } from '../../src/cli/chat/types.js';
import { bareContext } from '../helpers/context.js';

const SID = '6c1f0e55-1d1b-4a0e-9b7e-3f2a9c4d5e60';

/** Prints `events` (then throws `failWith`, if given); `told` is what stdout held at each onSession call. */
async function print(events: ReplyEvent[], failWith?: Error) {
  const out: string[] = [];
  const stdout = { write: (s: string) => (out.push(s), true), isTTY: false };
  const stderr = { write: () => true, isTTY: false };
  const ctx = bareContext({ stdout, stderr });
  const told: Array<{ id: string; printed: string }> = [];
  const source = (async function* () {
    for (const e of events) {
      await Promise.resolve();
      yield e;
    }
    if (failWith) throw failWith;
  })();
  const result = await printReply(ctx, source, { onSession: (id) => told.push({ id, printed: out.join('') }) }).then(
    () => undefined,
    (err: unknown) => err,
  );
  return { told, printed: out.join(''), error: result };
}

describe('printReply: when the session is told', () => {
  it('after the first text is written, not before it', async () => {
    const r = await print([
      { type: 'session', sessionId: SID },
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' world' },
      { type: 'done', sessionId: SID },
    ]);
    expect(r.told).toEqual([{ id: SID, printed: 'Hello' }]);
    expect(r.printed).toBe('Hello world\n');
  });

  it('a reply cut before any text still tells it', async () => {
    const r = await print(
      [{ type: 'session', sessionId: SID }],
      new StreamCutError('the reply was cut short (socket hang up)'),
    );
    expect(r.error).toBeInstanceOf(StreamCutError);
    expect(r.told).toEqual([{ id: SID, printed: '' }]);
  });

  it('a tool call before any text tells it then; a session named only at the end is told at the end', async () => {
    const tool = { type: 'tool' as const, call: { id: 't1', name: 'get_price', state: 'running' as const } };
    const early = await print([
      { type: 'session', sessionId: SID },
      tool,
      { type: 'text', text: 'BTC' },
      { type: 'done', sessionId: SID },
    ]);
    expect(early.told).toEqual([{ id: SID, printed: '' }]);
    const late = await print([
      { type: 'text', text: 'BTC' },
      { type: 'done', sessionId: SID },
    ]);
    expect(late.told).toEqual([{ id: SID, printed: 'BTC' }]);
  });
});
