// Before the process exits, the bin waits for stdout and stderr to write what they hold (main.ts
// flushed): a stream whose write failed (a full disk, a reader gone) will never drain, and waiting
// for it would leave the exit to an emptied event loop, with exit code 0 whatever the command's.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { flushed } from '../../src/cli/main.js';

/** A stream holding a write it has not finished: `finish()` completes it (or fails it, given an error). */
function holding(): Writable & { finish(err?: Error): void } {
  let done: ((err?: Error) => void) | undefined;
  const s = new Writable({ highWaterMark: 1, write: (_chunk, _enc, cb) => void (done = cb) });
  s.on('error', () => {});
  s.write('held');
  return Object.assign(s, { finish: (err?: Error) => done!(err) });
}

const settled = async (p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise((r) => setImmediate(() => r(false)))]);

describe('flushed', () => {
  it('waits for a stream that holds a write, until it drains', async () => {
    const s = holding();
    const waiting = flushed([s]);
    expect(await settled(waiting)).toBe(false);
    s.finish();
    expect(await settled(waiting)).toBe(true);
  });

  it.each([
    ['failed', Object.assign(new Error('broken pipe'), { code: 'EPIPE' })],
    ['was closed', undefined],
  ])('does not wait for a stream that %s before, a write still held', async (_what, err) => {
    const s = holding();
    s.destroy(err);
    await new Promise((r) => setImmediate(r));
    expect(s.writableLength).toBeGreaterThan(0);
    expect(await settled(flushed([s]))).toBe(true);
  });

  it('stops waiting for a stream that fails meanwhile', async () => {
    const s = holding();
    const waiting = flushed([s]);
    s.finish(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }));
    expect(await settled(waiting)).toBe(true);
  });

  it('does not wait for streams that hold nothing', async () => {
    expect(await settled(flushed([new Writable({ write: (_c, _e, cb) => cb() })]))).toBe(true);
  });
});
