// `superagent server`: the embedded service in the foreground (CLI.md).
import { PROVIDERS, type Provider } from '../../contract.js';
import { dataDir as defaultDataDir } from '../../config/paths.js';
import type { Context } from '../context.js';
import { EXIT, ServiceError } from '../errors.js';
import { parseInteger, parseNumber } from '../parse.js';
import type { CommandSpec, Options } from '../spec.js';
import { maskKey } from '../../ui/mask.js';

export const DEFAULT_PORT = 8420;

export const spec: CommandSpec = {
  name: 'server',
  summary: 'Run the embedded SuperAgents service in the foreground',
  description:
    'Run the embedded SuperAgents service in the foreground. The first stdout line is "Listening on http://HOST:PORT". ' +
    'Without --key it creates a key once, prints it, and keeps it in the data dir.',
  options: [
    { flags: '--port <n>', description: `port to listen on; 0 picks a free one (default ${DEFAULT_PORT})` },
    { flags: '--host <host>', description: 'address to listen on (default 127.0.0.1)' },
    { flags: '--data-dir <dir>', description: 'where state is kept (default: SUPERAGENT_DATA_DIR or the platform data dir)' },
    { flags: '--key <key>', description: 'accept this API key (repeatable); each key is its own account', repeatable: true },
    { flags: '--rate-limit <n>', description: 'requests per minute per key; 0 turns the limit off (default 60)' },
    { flags: '--token-delay <ms>', description: 'delay before each streamed piece of a reply (default 20)' },
    { flags: '--connect-provider <provider>', description: 'mark a model provider key as connected (repeatable)', choices: PROVIDERS, repeatable: true },
    { flags: '--fault-latency <ms>', description: 'add this latency to every answer' },
    { flags: '--fault-error-rate <r>', description: 'answer a share R (0..1) of requests with 500/503' },
    { flags: '--fault-cut-stream <n>', description: 'cut every stream after N pieces' },
    { flags: '--fault-unhealthy', description: 'report every agent unhealthy' },
    // benchmarking aid (bench/stream-throughput.js): long replies on demand
    { flags: '--bench-reply-pieces <n>', description: 'send every reply as N pieces (its own pieces repeated)', hidden: true },
  ],
  examples: [
    'superagent server',
    'superagent server --port 0 --data-dir ./tmp-state --rate-limit 0 --token-delay 0',
    'superagent server --connect-provider openai --fault-cut-stream 5',
  ],
};

export async function run(_args: string[], opts: Options, ctx: Context): Promise<number> {
  const options = {
    dataDir: (opts.dataDir as string | undefined) ?? defaultDataDir(ctx.env),
    port: opts.port === undefined ? DEFAULT_PORT : parseInteger('--port', opts.port, { min: 0, max: 65535 }),
    host: (opts.host as string | undefined) ?? '127.0.0.1',
    keys: (opts.key as string[] | undefined) ?? [],
    rateLimit: opts.rateLimit === undefined ? undefined : parseInteger('--rate-limit', opts.rateLimit, { min: 0 }),
    tokenDelayMs: opts.tokenDelay === undefined ? undefined : parseInteger('--token-delay', opts.tokenDelay, { min: 0, max: 60_000 }),
    connectedProviders: (opts.connectProvider as Provider[] | undefined) ?? [],
    faults: {
      latencyMs: opts.faultLatency === undefined ? 0 : parseInteger('--fault-latency', opts.faultLatency, { min: 0, max: 600_000 }),
      errorRate: opts.faultErrorRate === undefined ? 0 : parseNumber('--fault-error-rate', opts.faultErrorRate, { min: 0, max: 1 }),
      cutStreamAfter: opts.faultCutStream === undefined ? undefined : parseInteger('--fault-cut-stream', opts.faultCutStream, { min: 0 }),
      unhealthy: opts.faultUnhealthy === true,
    },
    replyPieces: opts.benchReplyPieces === undefined ? undefined : parseInteger('--bench-reply-pieces', opts.benchReplyPieces, { min: 1, max: 10_000_000 }),
  };
  const { startServer } = await import('../../server/index.js');
  let server;
  try {
    server = await startServer(options);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new ServiceError(`port ${options.port} on ${options.host} is already in use`, 'pick another with --port, or --port 0 for a free one');
    if (e.code === 'EACCES' || e.code === 'EPERM') throw new ServiceError(`cannot use ${options.dataDir} or port ${options.port}: ${e.message}`);
    throw err;
  }
  const p = ctx.printer;
  p.data(`Listening on ${server.url}`);
  if (options.keys.length === 0) {
    // the generated key is printed so the user can log in with it; keys given with --key are theirs already
    p.data(`API key: ${server.key}${server.keyCreated ? ' (new)' : ''}`);
  } else {
    p.data(`API keys: ${options.keys.map(maskKey).join(', ')}`);
  }
  p.status(`Data dir: ${server.dataDir}`);
  p.status(`Try: SUPERAGENT_BASE_URL=${server.url} SUPERAGENT_API_KEY=… superagent list   (Ctrl-C stops the service)`);

  return new Promise<number>((resolve) => {
    const stop = (code: number) => () => {
      void server.close().then(() => resolve(code));
    };
    process.once('SIGINT', stop(EXIT.interrupted));
    process.once('SIGTERM', stop(EXIT.ok));
  });
}
