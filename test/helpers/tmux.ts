// A real pseudo-terminal for the e2e tests: the built binary run in a detached tmux session on a
// private socket, its screen read with capture-pane and keys sent with send-keys. The service's
// address, key and directories reach the CLI through an env file the pane's shell sources, so the
// key is in no process's arguments (repl.test.ts checks it).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN } from './cli.js';
import { tempDir } from './service.js';

export const HAS_TMUX = spawnSync('tmux', ['-V']).status === 0;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface PaneOptions {
  /** the terminal's size (default 120×40) */
  width?: number;
  height?: number;
  /** more environment for the CLI (HOME, say), after the service's */
  env?: Record<string, string>;
  /** a shell pipeline the CLI's stdout goes through (`| cat`, `| tee FILE`) */
  pipe?: string;
  /**
   * typed at the prompt of an interactive bash, as a person runs it: closing the terminal (`hangUp`)
   * then reaches the CLI as it does there (bash passes SIGHUP on to its job, the kernel sends it again
   * as bash exits). The script around the CLI ignores SIGHUP, to write the exit code all the same.
   */
  atPrompt?: boolean;
}

/** One CLI run in a detached tmux session on a socket of its own; `close()` kills it and removes its files. */
export class Pane {
  readonly dir = tempDir('superagent-pane-');
  private readonly socket = path.join(this.dir, 'tmux.sock');
  private readonly exitFile = path.join(this.dir, 'exit-code');

  /** `service` undefined: nothing configured, so the CLI starts the embedded service on the data dir */
  constructor(
    service: { url: string; key: string } | undefined,
    args: string[],
    dirs: { configDir: string; dataDir: string },
    options: PaneOptions = {},
  ) {
    const env = {
      ...(service ? { SUPERAGENT_BASE_URL: service.url, SUPERAGENT_API_KEY: service.key } : {}),
      SUPERAGENT_CONFIG_DIR: dirs.configDir,
      SUPERAGENT_DATA_DIR: dirs.dataDir,
      ...options.env,
    };
    const envFile = path.join(this.dir, 'env');
    fs.writeFileSync(
      envFile,
      Object.entries(env)
        .map(([k, v]) => `export ${k}=${quote(v)}\n`)
        .join(''),
      { mode: 0o600 },
    );
    const script = path.join(this.dir, 'run.sh');
    const command = [process.execPath, BIN, ...args].map(quote).join(' ') + (options.pipe ? ` ${options.pipe}` : '');
    fs.writeFileSync(
      script,
      [
        `unset SUPERAGENT_PROFILE SUPERAGENT_BASE_URL SUPERAGENT_API_KEY ` +
          `CI NO_COLOR FORCE_HYPERLINK VTE_VERSION WT_SESSION`,
        `. ${quote(envFile)}`,
        // Ctrl-C on a cooked terminal signals the whole group: the shell outlives it to write the exit code
        'trap : INT',
        ...(options.atPrompt ? ["trap '' HUP"] : []),
        command,
        `echo $? > ${quote(this.exitFile)}`,
        // the pane stays (and its screen readable) after the CLI exits, until close() kills the server
        ...(options.atPrompt ? [] : ['exec sleep 600']),
      ].join('\n'),
    );
    const size = ['-x', String(options.width ?? 120), '-y', String(options.height ?? 40)];
    if (!options.atPrompt) {
      this.tmux('new-session', '-d', ...size, '-s', 'repl', `sh ${quote(script)}`);
      return;
    }
    // no startup file, no history written anywhere
    this.tmux('new-session', '-d', ...size, '-s', 'repl', "HISTFILE= PS1='$ ' exec bash --norc --noprofile -i");
    this.line(`sh ${quote(script)}`);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The pane's text, scrollback included, wrapped lines joined (-J), trailing blank lines dropped. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-500', '-t', 'repl').replace(/\s+$/, '');
  }

  /** The pane's rows as the terminal shows them: no line joined, none longer than the width. */
  rows(): string[] {
    return this.tmux('capture-pane', '-p', '-S', '-500', '-t', 'repl').replace(/\s+$/, '').split('\n');
  }

  /** The cursor's column (0: at the start of a line). */
  cursorX(): number {
    return Number(this.tmux('display-message', '-p', '-t', 'repl', '#{cursor_x}').trim());
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', 'repl', '-l', text);
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'repl', ...keys);
  }

  line(text: string): void {
    this.type(text);
    this.keys('Enter');
  }

  /** Pastes `text` as a terminal does (bracketed, when the program asked for it; line breaks as CR). */
  paste(text: string): void {
    this.tmux('set-buffer', '-b', 'paste', text);
    this.tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', 'repl');
  }

  async waitFor(what: string, ok: (screen: string) => boolean, ms = 15_000): Promise<string> {
    const deadline = Date.now() + ms;
    let last = '';
    for (;;) {
      try {
        last = this.screen();
      } catch {
        // the pane may be gone already
      }
      if (ok(last)) return last;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${last}`);
      await sleep(50);
    }
  }

  /** Prompts shown so far ("demo› " at the start of a line). */
  prompts(screen: string, label: string): number {
    return screen.split('\n').filter((l) => l.startsWith(`${label}›`)).length;
  }

  async exitCode(ms = 10_000): Promise<number> {
    const deadline = Date.now() + ms;
    while (!fs.existsSync(this.exitFile) || fs.readFileSync(this.exitFile, 'utf8') === '') {
      if (Date.now() > deadline) throw new Error(`the CLI did not exit; the screen:\n${this.screen()}`);
      await sleep(50);
    }
    return Number(fs.readFileSync(this.exitFile, 'utf8').trim());
  }

  /** Closes the terminal, as closing its window does: the pty hangs up under the CLI. */
  hangUp(): void {
    this.tmux('kill-window', '-t', 'repl');
  }

  /** Resizes the terminal (the program gets SIGWINCH). */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', 'repl', '-x', String(width), '-y', String(height));
  }

  /** Whether the terminal shows its alternate screen (a full-screen program's), not the normal one. */
  alternateOn(): boolean {
    return this.tmux('display-message', '-p', '-t', 'repl', '#{alternate_on}').trim() === '1';
  }

  /** Whether the terminal shows its cursor (a program may have hidden it with ESC [?25l). */
  cursorVisible(): boolean {
    return this.tmux('display-message', '-p', '-t', 'repl', '#{cursor_flag}').trim() === '1';
  }

  /** Every process under the pane, with its arguments. */
  processArgs(): string[] {
    return this.processes().map((p) => p.args);
  }

  /** Sends `signal` to the CLI's own process (not the pane's shell), as `kill` from another terminal would. */
  signal(signal: NodeJS.Signals): void {
    const cli = this.processes().find((p) => p.args.includes(BIN));
    if (!cli) throw new Error(`no CLI process in the pane; the screen:\n${this.screen()}`);
    process.kill(cli.pid, signal);
  }

  private processes(): Array<{ pid: number; args: string }> {
    const root = Number(this.tmux('display-message', '-p', '-t', 'repl', '#{pane_pid}').trim());
    const out: Array<{ pid: number; args: string }> = [];
    const walk = (pid: number) => {
      out.push({ pid, args: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') });
      const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      for (const child of children) walk(Number(child));
    };
    walk(root);
    return out;
  }

  close(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server']);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
