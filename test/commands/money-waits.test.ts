// Reading what an agent holds may take a source's whole time-out: on a terminal a spinner says what
// is read; a source that never answers is named by its host when its time is up.
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cliFor, spinnerRecorder } from '../helpers/context.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { fakeClock } from '../helpers/sim.js';

const t = perTest();

async function withAgent() {
  const svc = await t.service({ simClock: fakeClock().now });
  await launchAgent(svc, { name: 'holder' });
  return cliFor(() => svc);
}

describe('waiting for the money sources', () => {
  it('wallet, positions, pnl and destroy on a terminal: a spinner names what is read, and is stopped', async () => {
    const cli = await withAgent();
    for (const [line, label] of [
      ['wallet holder', /^Reading balances from 9 sources…/],
      ['positions holder', /^Reading positions from 2 sources…/],
      ['pnl holder', /^Reading the history from Hyperliquid…/],
      ['destroy holder --yes', /^Reading balances from 9 sources…/],
    ] as const) {
      const rec = spinnerRecorder();
      await cli(line, { tty: true, world: rec.world });
      const reading = rec.started.filter((s) => label.test(s.label));
      expect(reading.length, `${line}: ${JSON.stringify(rec.started.map((s) => s.label))}`).toBe(1);
      expect(reading[0]!.stopped).toBe(true);
    }
  });

  it('a source that never answers, piped: said once after a few seconds, then named by its host', async () => {
    const sockets: Socket[] = [];
    const hole = createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hole.address() as { port: number };
      const cli = await withAgent();
      // the notice comes at 3 s, before the 4 s time-out (timers of one process, in order)
      const r = await cli('wallet holder --timeout 4', { env: { SUPERAGENT_RPC_BSC: `http://127.0.0.1:${port}/k` } });
      expect(r.code).toBe(7);
      const lines = r.stderr.split('\n');
      expect(lines.filter((l) => l.includes('Still reading balances from 9 sources'))).toHaveLength(1);
      expect(r.stderr).toContain(`127.0.0.1:${port} did not answer within 4 s`);
      expect(r.stderr).not.toContain('/k');
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => hole.close(resolve));
    }
  });
});
