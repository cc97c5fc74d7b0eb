// vitest setup file: nothing leaves loopback. A connection a test process opens to one of the public
// sources the CLI reads by default (the hosted service, the chains' public JSON-RPC endpoints,
// Hyperliquid, Polymarket) fails at once, naming the host, instead of reaching the internet: a test
// that forgot to point a source at a stand-in (or to switch it off) fails rather than passes online.
import net from 'node:net';

const PUBLIC_SUFFIXES = [
  'gigabrain.gg',
  'hyperliquid.xyz',
  'polymarket.com',
  'solana.com',
  'reth.rs',
  'arbitrum.io',
  'base.org',
  'drpc.org',
  'thirdweb.com',
  'optimism.io',
];

export function isPublicSource(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return PUBLIC_SUFFIXES.some((s) => h === s || h.endsWith(`.${s}`));
}

type Connect = (this: net.Socket, ...args: unknown[]) => net.Socket;
const connect = net.Socket.prototype.connect as unknown as Connect;

function hostOf(args: unknown[]): string | undefined {
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (first && typeof first === 'object') return (first as { host?: string }).host;
  return typeof args[1] === 'string' ? args[1] : undefined;
}

net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const host = hostOf(args);
  if (host && isPublicSource(host)) {
    const refused = Object.assign(new Error(`a test tried to reach ${host}: nothing may leave loopback`), {
      code: 'ECONNREFUSED',
    });
    process.nextTick(() => this.destroy(refused));
    return this;
  }
  return connect.apply(this, args);
} as typeof net.Socket.prototype.connect;
