// readReplyStream's `idleMs` (--timeout for a stream): the longest wait for the next piece of the
// reply. Pings and other events do not count as progress; the text before the time-out is kept.
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/api/errors.js';
import { readReplyStream, type StreamEvent } from '../../src/api/sse.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';

/**
 * A body that yields `chunks`, then hangs until destroyed, failing
 * with the error it was destroyed with (as a node stream does).
 */
function hanging(chunks: string[]) {
  let fail!: (err: Error) => void;
  const destroyed = new Promise<never>((_, reject) => (fail = reject));
  destroyed.catch(() => undefined); // a body let go at done is destroyed with nobody reading
  const gen = (async function* () {
    for (const c of chunks) yield new TextEncoder().encode(c);
    await destroyed;
  })();
  return Object.assign(gen, {
    destroyedWith: [] as Array<Error | undefined>,
    destroy(err?: Error) {
      this.destroyedWith.push(err);
      fail(err ?? new Error('destroyed'));
    },
  });
}

async function read(body: ReturnType<typeof hanging>, idleMs: number) {
  const events: StreamEvent[] = [];
  const err = await (async () => {
    for await (const e of readReplyStream(body, { contentType: 'text/event-stream', idleMs })) events.push(e);
  })().catch((e: unknown) => e);
  return { events, err };
}

describe('readReplyStream: idleMs', () => {
  it('no reply text within the limit: TimeoutError (exit 7), the text before it kept', async () => {
    const body = hanging(['data: {"content":"kept"}\n\n']);
    const { events, err } = await read(body, 20);
    expect(events).toEqual([{ type: 'text', text: 'kept' }]);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).message).toBe('no reply text within 0.02 s');
    expect((err as TimeoutError).hint).toBe('what arrived is kept above; raise the limit with --timeout SECONDS');
    expect(exitCodeFor(err)).toBe(7);
    expect(body.destroyedWith[0]).toBeInstanceOf(TimeoutError);
  });

  it('pings and empty events are no progress: still a time-out', async () => {
    const { events, err } = await read(
      hanging([': ping\n\n', 'event: session\ndata: {"session_id":"s-1"}\n\n', ': ping\n\n']),
      20,
    );
    expect(events).toEqual([{ type: 'session', sessionId: 's-1' }]);
    expect(err).toBeInstanceOf(TimeoutError);
  });

  it('a stream that completes within the limit ends normally and stops the timer', async () => {
    const body = hanging(['data: {"content":"all"}\n\n', 'event: done\ndata: {"content":"all"}\n\n']);
    const { events, err } = await read(body, 5_000);
    expect(err).toBeUndefined();
    expect(events).toEqual([
      { type: 'text', text: 'all' },
      { type: 'done', sessionId: undefined },
    ]);
    expect(body.destroyedWith).toEqual([undefined]); // let go at done, not timed out
  });
});
