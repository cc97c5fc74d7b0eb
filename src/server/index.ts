// The programmatic entry: start the embedded service on a loopback port, get its URL and key, stop it.
// Used by `superagent server`, by the tests, and by the CLI when nothing is configured.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIMITS, type Provider, type SimScenario } from '../contract.js';
import { createApp } from './app.js';
import { guardConnections } from './connections.js';
import { CONNECTION_LIMITS, failureReporter, type ServiceFailure } from './http.js';
import { KeyRing, loadOrCreateDefaultKey } from './auth.js';
import { Faults, type FaultOptions } from './faults.js';
import { observed, type Exchange } from './observe.js';
import { PendingWrites } from './pending-writes.js';
import { timed, type Answered } from './request-log.js';
import { RateLimiter } from './rate-limit.js';
import { Store } from './store.js';
import type { SeededHolding } from './sim/records.js';
import { Simulation } from './sim/simulation.js';

export interface ServerOptions {
  dataDir: string;
  /** 0 (the default) picks a free port */
  port?: number;
  host?: string;
  /** accepted keys; none: the data dir's default key, created on first use */
  keys?: string[];
  /** requests per minute per key; 0 turns the limit off */
  rateLimit?: number;
  /** requests per minute per address to the simulation's routes (/sim/…, outside `rateLimit`); 0: off */
  simRateLimit?: number;
  /** the rate limiter's clock (tests share a fake one with the client) */
  rateClock?: () => number;
  /** delay before each streamed piece */
  tokenDelayMs?: number;
  /** the service's waits (token delay, injected latency); tests pass one that records them */
  sleep?: (ms: number) => Promise<void>;
  pingIntervalMs?: number;
  assistantTimeLimitMs?: number;
  connectedProviders?: Provider[];
  faults?: FaultOptions;
  /** benchmarking aid: every reply is sent as this many pieces (its own pieces repeated); off by default */
  replyPieces?: number;
  /** longest wait for a request's headers; past it, 408 and the connection closes */
  headersTimeoutMs?: number;
  /** longest wait for a whole request, headers and body: a trickled body ends there (408) */
  requestTimeoutMs?: number;
  /** longest pause in a request body: a body at rest is answered 408 */
  bodyTimeoutMs?: number;
  /** connections open at once; past it the oldest idle one is closed, or the newcomer when all are busy */
  maxConnections?: number;
  /** a connection that has sent no byte by then is closed */
  firstByteTimeoutMs?: number;
  /** where request errors are logged; default stderr */
  log?: (line: string) => void;
  /** each failure of ours as it is logged, typed (who runs the service in-process acts on it) */
  onFailure?: (failure: ServiceFailure) => void;
  /** called once per answered request with what crossed the wire (conformance tests) */
  onExchange?: (exchange: Exchange) => void;
  /** called once per request as its connection is done with it (the request log of `superagent server`) */
  onAnswered?: (answered: Answered) => void;
  /** USDC on each launched agent's paper Hyperliquid account (default 10000) */
  paperBalanceUsd?: number;
  /** USDC.e on polygon an agent deposits the first time it runs with its polymarket skill (default 1000) */
  polymarketBalanceUsd?: number;
  /** the clock the simulated market moves with (tests move a fake one instead of waiting) */
  simClock?: () => number;
  /** the simulated market's seed: the same seed and clock, the same prices and trades */
  simSeed?: string;
  /** simulated market minutes per minute of the clock (demos: faster trading); default 1 */
  simSpeed?: number;
  /** the simulated market's scenario: calm (the default) or crash (falls steadily from the start) */
  simScenario?: SimScenario;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** the first accepted key */
  key: string;
  /** true when this start created the data dir's default key */
  keyCreated: boolean;
  /** where the data dir's default key is kept; undefined when keys were given */
  keyFile?: string;
  dataDir: string;
  /** gives an address an amount of a listed asset on a simulated chain (tests, demos) */
  seedHoldings(address: string, holding: SeededHolding): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_TOKEN_DELAY_MS = 20;
/** the simulation's bound: a wallet reads about fourteen sources, so forty wallets a minute per address */
const SIM_RATE_PER_MINUTE = 600;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const failed = failureReporter(log, options.onFailure);
  const store = new Store(options.dataDir, {
    onLeftOut: (message) => failed.report({ kind: 'left-out', message }),
  }).open();
  const keys = new KeyRing(options.keys ?? []);
  const pendingWrites = new PendingWrites(failed);
  const sim = new Simulation(store, {
    paperBalanceUsd: options.paperBalanceUsd,
    polymarketBalanceUsd: options.polymarketBalanceUsd,
    clock: options.simClock,
    seed: options.simSeed,
    speed: options.simSpeed,
    scenario: options.simScenario,
  });
  await sim.start();
  const handler = createApp({
    service: {
      store,
      pendingWrites,
      faults: new Faults(options.faults, Math.random, sleep),
      tokenDelayMs: options.tokenDelayMs ?? DEFAULT_TOKEN_DELAY_MS,
      sleep,
      pingIntervalMs: options.pingIntervalMs ?? 15_000,
      assistantTimeLimitMs: options.assistantTimeLimitMs ?? 600_000,
      connectedProviders: new Set(options.connectedProviders ?? []),
      replyPieces: options.replyPieces,
      sim,
    },
    keys,
    limiter: new RateLimiter(options.rateLimit ?? LIMITS.ratePerMinute, options.rateClock),
    simLimiter: new RateLimiter(options.simRateLimit ?? SIM_RATE_PER_MINUTE, options.rateClock),
    log,
    failed,
    bodyTimeoutMs: options.bodyTimeoutMs,
  });
  const headersTimeout = options.headersTimeoutMs ?? CONNECTION_LIMITS.headersTimeoutMs;
  const requestTimeout = Math.max(headersTimeout, options.requestTimeoutMs ?? CONNECTION_LIMITS.requestTimeoutMs);
  const server = http.createServer(
    {
      keepAliveTimeout: 5_000,
      headersTimeout,
      requestTimeout,
      // Node checks both limits on this interval (30 s by default): often enough that they hold
      connectionsCheckingInterval: Math.max(10, Math.floor(Math.min(1_000, headersTimeout / 2))),
    },
    tapped(handler, options),
  );
  guardConnections(server, {
    max: options.maxConnections ?? CONNECTION_LIMITS.maxConnections,
    firstByteTimeoutMs: options.firstByteTimeoutMs ?? CONNECTION_LIMITS.firstByteTimeoutMs,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    // a session whose id a client has seen is written (or its failure logged) before the service is gone
    await pendingWrites.settled();
  };
  // The data dir's default key is made only now that the port is ours: a start that cannot listen
  // (the port taken) leaves no key behind, so the start that makes the key is one that prints it
  // whole. Until it is added the ring is empty: a request that came first would be refused (401).
  let defaultKey: { key: string; created: boolean; file: string } | undefined;
  if (!options.keys?.length) {
    try {
      defaultKey = loadOrCreateDefaultKey(options.dataDir);
    } catch (err) {
      await close();
      throw err;
    }
    keys.add(defaultKey.key);
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    key: defaultKey?.key ?? options.keys![0]!,
    keyCreated: defaultKey?.created ?? false,
    keyFile: defaultKey?.file,
    dataDir: options.dataDir,
    seedHoldings: (address, holding) => sim.seedHoldings(address, holding),
    close,
  };
}

/** The handler with the taps asked for: none costs the service anything when not asked for. */
function tapped(handler: http.RequestListener, options: ServerOptions): http.RequestListener {
  const logged = options.onAnswered ? timed(handler, options.onAnswered) : handler;
  return options.onExchange ? observed(logged, options.onExchange) : logged;
}

/** The store itself, for tools and tests that work on a data dir directly. */
export { Store } from './store.js';
export { keyHasAccount, loadOrCreateDefaultKey } from './auth.js';
export type { Exchange } from './observe.js';
export { answeredLine, type Answered } from './request-log.js';
export type { ServiceFailure } from './http.js';
export type { SeededHolding } from './sim/records.js';
export { DEFAULT_PAPER_BALANCE_USD } from './sim/simulation.js';
