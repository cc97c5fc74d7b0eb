// Runs the built binary as a user would, against a given service, with a private config dir.
import { SOURCES } from '../../src/api/money/types.js';
import { endpointVariable } from '../../src/cli/commands/shared/money.js';
import { execa, type Options as ExecaOptions } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeAfterFile } from './after-file.js';
import { tempDir } from './service.js';

// the config and data dirs made for a run that was given none: removed when the test file is done
/** A temporary dir removed once the test file is done. */
export const ownTempDir = (prefix: string) => removeAfterFile(tempDir(prefix));

export const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../bin/superagent.js');

export interface CliTarget {
  url: string;
  key: string;
}

export interface RunOptions {
  /** the service to talk to through SUPERAGENT_BASE_URL / SUPERAGENT_API_KEY; omit for none */
  target?: CliTarget;
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  configDir?: string;
  dataDir?: string;
  timeout?: number;
  /** where the command runs (default: this process's directory) */
  cwd?: string;
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Environment with nothing of the developer's own setup leaking in. */
/** Every chain source switched off (a test reading money sets the ones it reads). */
const SOURCES_OFF = Object.fromEntries(SOURCES.map((source) => [endpointVariable(source), 'off']));

/** Every chain source as the CLI chooses it (on the embedded service: its own simulation, on loopback). */
export const SOURCES_ON = Object.fromEntries(SOURCES.map((source) => [endpointVariable(source), undefined]));

export function cleanEnv(opts: RunOptions): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TERM: 'dumb',
    NO_COLOR: undefined,
    CI: undefined,
    SUPERAGENT_API_KEY: opts.target?.key,
    SUPERAGENT_BASE_URL: opts.target?.url,
    SUPERAGENT_PROFILE: undefined,
    SUPERAGENT_CONFIG_DIR: opts.configDir ?? ownTempDir('superagent-config-'),
    SUPERAGENT_DATA_DIR: opts.dataDir ?? ownTempDir('superagent-data-'),
    // launch and apply keep a lock in the cache dir: never the developer's
    XDG_CACHE_HOME: ownTempDir('superagent-cache-'),
    // no public chain source: a test that reads money points a source at a stand-in (or the embedded /sim)
    ...SOURCES_OFF,
    ...opts.env,
  };
}

export async function runCli(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  const execaOpts: ExecaOptions = {
    env: cleanEnv(opts),
    extendEnv: false,
    reject: false,
    timeout: opts.timeout ?? 30_000,
    cwd: opts.cwd,
    input: opts.input ?? '',
    stripFinalNewline: false,
  };
  const r = await execa(process.execPath, [BIN, ...args], execaOpts);
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/**
 * Resolves once the child's stdout has shown `text` (its handlers are in place by then), or once it ended
 * without (the assertions that follow say why).
 */
export function stdoutShows(child: { stdout: NodeJS.ReadableStream | null } & PromiseLike<unknown>, text: string) {
  return new Promise<void>((resolve) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(text)) resolve();
    });
    void Promise.resolve(child).then(
      () => resolve(),
      () => resolve(),
    );
  });
}
