// `superagent server`: the embedded service in the foreground (docs/cli.md).
import { PROVIDERS, SIM_SCENARIOS, type Provider, type SimScenario } from '../../contract.js';
import { dataDir as defaultDataDir } from '../../config/paths.js';
import type { Context } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { BadAnswerError, UsageError } from '../../core/errors.js';
import { dataDirFailure, storeFailure } from './shared/connect.js';
import { parseInteger, parseNumber } from './shared/numbers.js';
import type { Input, Spec } from '../spec.js';
import { maskKey } from '../../ui/mask.js';
import { shellWord } from '../../ui/shell-word.js';
import type { Answered } from '../../server/request-log.js';

export const DEFAULT_PORT = 8420;

export const spec = {
  description:
    'Run the embedded SuperAgents service in the foreground. The ' +
    'first stdout line is "Listening on http://HOST:PORT". ' +
    'Without --key it creates a key once, prints it whole that time, ' +
    'and keeps it in the data dir; later starts print it masked. ' +
    'Then, on stderr, the data dir and how to point a CLI at it (piped too, for a log). ' +
    'Each request is logged on stderr (method, path, status, time; a refused key said so); --quiet turns these off.',
  options: {
    port: {
      type: 'string',
      value: 'n',
      description: `port to listen on; 0 picks a free one (default ${DEFAULT_PORT})`,
    },
    host: { type: 'string', description: 'address to listen on (default 127.0.0.1)' },
    dataDir: {
      type: 'string',
      value: 'dir',
      complete: 'dir',
      description: 'where state is kept (default: SUPERAGENT_DATA_DIR or the platform data dir)',
    },
    key: { type: 'strings', description: 'accept this API key (repeatable); each key is its own account' },
    rateLimit: {
      type: 'string',
      value: 'n',
      description: 'requests per minute per key; 0 turns the limit off (default 60)',
    },
    tokenDelay: {
      type: 'string',
      value: 'ms',
      description: 'delay before each streamed piece of a reply (default 20)',
    },
    connectProvider: {
      type: 'strings',
      value: 'provider',
      choices: PROVIDERS,
      description: 'mark a model provider key as connected (repeatable)',
    },
    paperBalance: {
      type: 'string',
      value: 'usd',
      description:
        'paper USDC each launched agent gets on its simulated Hyperliquid (default 10000; ' +
        'SUPERAGENT_PAPER_BALANCE sets it for the embedded service)',
    },
    simSpeed: {
      type: 'string',
      value: 'n',
      description:
        'run the simulated market N times faster than the clock, for demos (default 1; ' +
        'SUPERAGENT_SIM_SPEED sets it for the embedded service)',
    },
    simScenario: {
      type: 'string',
      value: 'name',
      choices: SIM_SCENARIOS,
      description:
        'shape the simulated market: calm (the default) or crash (every coin falls 30% each 5 simulated minutes, ' +
        'to a floor of 5% where it stays, from the first start with it on this data dir: agents holding longs ' +
        'lose value; calm after it recovers from where it was; the scenario is kept in the data dir until ' +
        'another is named; SUPERAGENT_SIM_SCENARIO sets it for the embedded service)',
    },
    faultLatency: { type: 'string', value: 'ms', description: 'add this latency to every answer' },
    faultErrorRate: { type: 'string', value: 'r', description: 'answer a share R (0..1) of requests with 500/503' },
    faultCutStream: { type: 'string', value: 'n', description: 'cut every stream after N pieces' },
    faultUnhealthy: { type: 'boolean', description: 'report every agent unhealthy' },
    // benchmarking aid (bench/stream-throughput.js): long replies on demand
    benchReplyPieces: {
      type: 'string',
      value: 'n',
      hidden: true,
      description: 'send every reply as N pieces (its own pieces repeated)',
    },
  },
  examples: [
    'superagent server',
    'superagent server --port 0 --data-dir ./tmp-state --rate-limit 0 --token-delay 0',
    'superagent server --connect-provider openai --fault-cut-stream 5',
  ],
} as const satisfies Spec;

/** A request's line on stderr, piped too (a log file); a refused key as a warning, what a failed login shows. */
function logAnswered(ctx: Context, answered: Answered, line: string): void {
  if (answered.status === 401) ctx.printer.warn(line);
  else ctx.printer.stderrWrite(`${line}\n`);
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  const options = {
    dataDir: input.dataDir ?? defaultDataDir(ctx.env),
    port: input.port === undefined ? DEFAULT_PORT : parseInteger('--port', input.port, { min: 0, max: 65535 }),
    host: input.host ?? '127.0.0.1',
    keys: input.key,
    rateLimit: input.rateLimit === undefined ? undefined : parseInteger('--rate-limit', input.rateLimit, { min: 0 }),
    tokenDelayMs:
      input.tokenDelay === undefined
        ? undefined
        : parseInteger('--token-delay', input.tokenDelay, { min: 0, max: 60_000 }),
    connectedProviders: input.connectProvider as Provider[],
    paperBalanceUsd:
      input.paperBalance === undefined
        ? undefined
        : parseNumber('--paper-balance', input.paperBalance, { min: 0, max: 1e12 }),
    simSpeed:
      input.simSpeed === undefined
        ? undefined
        : parseNumber('--sim-speed', input.simSpeed, { min: 0.001, max: 100_000 }),
    simScenario: input.simScenario as SimScenario | undefined,
    faults: {
      latencyMs:
        input.faultLatency === undefined
          ? 0
          : parseInteger('--fault-latency', input.faultLatency, { min: 0, max: 600_000 }),
      errorRate:
        input.faultErrorRate === undefined
          ? 0
          : parseNumber('--fault-error-rate', input.faultErrorRate, { min: 0, max: 1 }),
      cutStreamAfter:
        input.faultCutStream === undefined
          ? undefined
          : parseInteger('--fault-cut-stream', input.faultCutStream, { min: 0 }),
      unhealthy: input.faultUnhealthy,
    },
    replyPieces:
      input.benchReplyPieces === undefined
        ? undefined
        : parseInteger('--bench-reply-pieces', input.benchReplyPieces, { min: 1, max: 10_000_000 }),
  };
  const { startServer, answeredLine } = await import('../../server/index.js');
  const onAnswered = (answered: Answered) => logAnswered(ctx, answered, answeredLine(answered));
  let server;
  try {
    server = await startServer({ ...options, onAnswered: ctx.globals.quiet ? undefined : onAnswered });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE')
      throw new BadAnswerError(
        `port ${options.port} on ${options.host} is already in use`,
        'pick another with --port, or --port 0 for a free one',
      );
    if (e.syscall === 'listen' && (e.code === 'EACCES' || e.code === 'EPERM')) {
      const hint = 'pick a port above 1023 with --port, or --port 0 for a free one';
      throw new UsageError(`cannot listen on port ${options.port} of ${options.host}: permission denied`, hint);
    }
    const writable = 'use a data dir you can write: --data-dir or SUPERAGENT_DATA_DIR';
    throw dataDirFailure(err, options.dataDir, 'the service', writable) ?? storeFailure(err, 'the service') ?? err;
  }
  const running = server;
  // the signals are ours before the banner says the service is up: a SIGTERM right after it stops
  // the service cleanly (exit 0), not the process by default
  const stopped = new Promise<number>((resolve) => {
    const stop = (code: number) => () => {
      const closing = running.close();
      const hint = code === EXIT.interrupted ? ' (Ctrl-C again stops at once, without it)' : '';
      void ctx
        .sayIfSlow(closing, () => ctx.printer.warn(`Waiting for a write under way to finish before stopping${hint}`))
        .then(() => {
          // a terminal echoed ^C on the current line: Stopped gets a line of its own
          const echoed = code === EXIT.interrupted && ctx.printer.stderrIsTTY;
          if (!ctx.globals.quiet) ctx.printer.stderrWrite(`${echoed ? '\n' : ''}Stopped\n`);
          resolve(code);
        });
    };
    ctx.signals.onInterrupt(stop(EXIT.interrupted));
    ctx.signals.onTerminate(stop(EXIT.ok));
  });
  const p = ctx.printer;
  p.data(`Listening on ${server.url}`);
  if (server.keyCreated) {
    // printed whole once, when created, for the user to copy; keys given with --key are theirs already
    p.data(`API key: ${server.key} (new)`);
  } else if (server.keyFile) {
    p.data(`API key: ${maskKey(server.key)} (kept in ${server.keyFile})`);
  } else {
    p.data(`API keys: ${options.keys.map(maskKey).join(', ')}`);
  }
  // piped too (a log, a script waiting for the service): how to point a CLI at it; --quiet leaves it out
  const key = server.keyFile ? `"$(cat ${shellWord(server.keyFile)})"` : '…';
  const banner = [
    `Data dir: ${server.dataDir}`,
    `Try: SUPERAGENT_BASE_URL=${server.url} SUPERAGENT_API_KEY=${key} superagent list   (Ctrl-C stops the service)`,
  ];
  if (!ctx.globals.quiet) p.stderrWrite(banner.map((line) => `${line}\n`).join(''));
  return stopped;
}
