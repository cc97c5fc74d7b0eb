// A command's end waits for the embedded service to finish a write it began (a session whose id the
// user has seen); a wait of more than a second is said on stderr, once, with the way out.
import { describe, expect, it } from 'vitest';
import type { OpenedApi } from '../../src/cli/commands/shared/connect.js';
import { bareContext } from '../helpers/context.js';

const WAITING = 'Waiting for the local service to finish a write before exiting (Ctrl-C quits now, without it)';

/** A Context whose embedded service closes when `closed` settles; `said` is its stderr. */
function contextClosingOn(closed: Promise<void>) {
  const said: string[] = [];
  const ctx = bareContext({
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (s: string) => (said.push(s), true), isTTY: false },
    openApi: async () =>
      ({
        client: { close: async () => undefined },
        embedded: { close: () => closed, explain: (e: unknown) => e, leftOut: () => undefined },
      }) as unknown as OpenedApi,
  });
  return { ctx, said };
}

describe('dispose() with the embedded service', () => {
  it('says once, on stderr, that it waits for a write when closing takes longer than a second', async () => {
    let release!: () => void;
    const { ctx, said } = contextClosingOn(new Promise<void>((resolve) => (release = resolve)));
    await ctx.api();
    let disposed = false;
    const disposing = ctx.dispose().then(() => (disposed = true));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(said.join('')).toBe(`! ${WAITING}\n`);
    expect(disposed).toBe(false);
    release();
    await disposing;
    expect(said.join('')).toBe(`! ${WAITING}\n`);
  });

  it('says nothing when the service closes at once', async () => {
    const { ctx, said } = contextClosingOn(Promise.resolve());
    await ctx.api();
    await ctx.dispose();
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(said).toEqual([]);
  });
});
