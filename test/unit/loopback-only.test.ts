// The guard every test file runs under (test/setup/loopback-only.ts): the public sources are out of reach.
import net from 'node:net';
import { describe, expect, it } from 'vitest';

function connectError(host: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: 443 });
    socket.once('error', (err) => resolve(err.message));
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
  });
}

describe('nothing leaves loopback', () => {
  it('a connection to a public source the CLI reads by default fails at once, naming it', async () => {
    for (const host of ['api.hyperliquid.xyz', 'data-api.polymarket.com', 'api.gigabrain.gg', 'mainnet.base.org']) {
      expect(await connectError(host)).toBe(`a test tried to reach ${host}: nothing may leave loopback`);
    }
  });
});
