import { describe, expect, it } from 'vitest';
import { BatchedWrites } from '../../src/ui/batched-writes.js';

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('BatchedWrites', () => {
  it('pieces pushed together go out as one write, once the event loop has handed them all over', async () => {
    const writes: string[] = [];
    const out = new BatchedWrites((t) => void writes.push(t));
    for (const piece of ['a', 'b', 'c']) out.push(piece);
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['abc']);
    out.push('d');
    await nextTurn();
    expect(writes).toEqual(['abc', 'd']);
  });

  it('flush writes what is pending at once; an async sink gets its batches in order, one after another', async () => {
    const writes: string[] = [];
    let busy = false;
    const out = new BatchedWrites(async (t) => {
      expect(busy).toBe(false);
      busy = true;
      await nextTurn();
      writes.push(t);
      busy = false;
    });
    out.push('1');
    const first = out.flush();
    out.push('2');
    out.push('3');
    await out.flush();
    await first;
    expect(writes).toEqual(['1', '23']);
  });

  it('a sink that fails: nothing more is written, and every later flush reports the failure', async () => {
    const writes: string[] = [];
    const out = new BatchedWrites((t) => {
      if (t === 'bad') throw new Error('renderer broke');
      writes.push(t);
    });
    out.push('bad');
    await nextTurn(); // the scheduled flush fails without an unhandled rejection
    out.push('after');
    await expect(out.flush()).rejects.toThrow('renderer broke');
    await expect(out.flush()).rejects.toThrow('renderer broke');
    expect(writes).toEqual([]);
  });
});
