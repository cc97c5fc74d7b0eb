// Editing text in the user's editor: $VISUAL, else $EDITOR, else vi (as git does), split like a shell
// would split it so `code --wait` and `vim -c 'set tw=80'` work, run on the terminal we were given,
// on a private file in a 0700 directory of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../core/errors.js';
import { endGroupTree } from '../core/process-tree.js';
import { ShellSplitError, shellSplit } from './shell-split.js';

export const DEFAULT_EDITOR = 'vi';

export interface EditorCommand {
  /** where it came from, for messages */
  source: 'VISUAL' | 'EDITOR' | 'default';
  line: string;
  argv: string[];
}

/** A failure of the editor itself (not found, refused, exited non-zero): nothing was uploaded. */
export class EditorError extends UsageError {}

/** The user's editor, as a command sees it (a test gives one that edits the file itself). */
export interface Editor {
  /** which editor `open` runs (throws EditorError when VISUAL or EDITOR cannot be split) */
  command(): EditorCommand;
  /**
   * opens `file` and waits for the editor to exit; `stop` aborted: the editor, and what it started,
   * are sent the signal that is its reason ('SIGHUP', else SIGTERM), then SIGKILL if still there
   */
  open(file: string, stop?: AbortSignal): Promise<void>;
}

/** $VISUAL, else $EDITOR, else vi, run on this terminal. */
export function systemEditor(env: NodeJS.ProcessEnv): Editor {
  return {
    command: () => editorCommand(env),
    open: (file, stop) => runEditor(editorCommand(env), env, file, stop),
  };
}

/** The editor to run: the first of VISUAL and EDITOR that holds a command, else vi. */
export function editorCommand(env: NodeJS.ProcessEnv): EditorCommand {
  for (const source of ['VISUAL', 'EDITOR'] as const) {
    const line = env[source];
    if (line === undefined || line.trim() === '') continue;
    let argv: string[];
    try {
      argv = shellSplit(line);
    } catch (err) {
      if (err instanceof ShellSplitError)
        throw new EditorError(
          `${source} is not a command the CLI can run: ${err.message}`,
          `check the quotes in ${source}`,
        );
      throw err;
    }
    if (argv.length > 0 && argv[0] !== '') return { source, line, argv };
  }
  return { source: 'default', line: DEFAULT_EDITOR, argv: [DEFAULT_EDITOR] };
}

export interface PrivateFile {
  dir: string;
  path: string;
  /** removes the file and its directory (with any swap file the editor left) */
  remove(): void;
}

/**
 * A file of its own, mode 0600, in a fresh 0700 directory under the system's temporary directory.
 * One that cannot be written whole (a full disk) leaves nothing behind.
 */
export function createPrivateFile(fileName: string, content: string, tmpDir = os.tmpdir()): PrivateFile {
  const dir = newPrivateDir(tmpDir);
  const file = privateFileIn(dir, fileName);
  try {
    fs.writeFileSync(file.path, content, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    file.remove();
    throw err;
  }
  return file;
}

/** A fresh 0700 directory under the system's temporary directory. */
export function newPrivateDir(tmpDir = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(tmpDir, 'superagent-'));
  try {
    fs.chmodSync(dir, 0o700);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

/** The file `fileName` in a private directory of its own (removed with it). */
export function privateFileIn(dir: string, fileName: string): PrivateFile {
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  return { dir, path: path.join(dir, path.basename(fileName)), remove };
}

function startFailure(cmd: EditorCommand, err: NodeJS.ErrnoException): EditorError {
  const name = cmd.argv[0]!;
  const from = cmd.source === 'default' ? 'the default editor' : `the editor from ${cmd.source}`;
  const hint = 'set VISUAL or EDITOR to an editor on your PATH, e.g. export EDITOR=nano';
  if (err.code === 'ENOENT') return new EditorError(`cannot start ${from} '${name}': command not found`, hint);
  if (err.code === 'EACCES') return new EditorError(`cannot start ${from} '${name}': permission denied`, hint);
  return new EditorError(`cannot start ${from} '${name}': ${err.message}`, hint);
}

/** How long an editor told to stop (and what it started) may take to save what it can and exit, before SIGKILL. */
const STOP_GRACE_MS = 3_000;

/**
 * Opens `file` in the editor (from `editorCommand`) on this terminal and waits for it to exit. Ctrl-C belongs to the
 * editor while it runs (as in git), so it does not end the CLI under it.
 */
export async function runEditor(
  cmd: EditorCommand,
  env: NodeJS.ProcessEnv,
  file: string,
  stop?: AbortSignal,
): Promise<void> {
  const { spawn } = await import('node:child_process');
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(cmd.argv[0]!, [...cmd.argv.slice(1), file], { stdio: 'inherit', env });
      // told to stop (our SIGTERM or SIGHUP): so is the editor, with the same signal, which saves what
      // it can (vim's swap file) and gives the terminal back; so are the processes it started (a
      // wrapper script's), as the terminal's own hang-up would reach them: none is left running
      let stopping: Promise<void> | undefined;
      const forward = () => {
        if (child.pid === undefined) return;
        const signal = stop?.reason === 'SIGHUP' ? 'SIGHUP' : 'SIGTERM';
        stopping = endGroupTree(child.pid, signal, STOP_GRACE_MS);
      };
      // told while the editor was being started: stopped at once
      if (stop?.aborted) forward();
      else stop?.addEventListener('abort', forward, { once: true });
      child.once('exit', () => stop?.removeEventListener('abort', forward));
      child.once('error', (err) => reject(startFailure(cmd, err)));
      child.once('exit', (code, signal) => {
        const settle = () => {
          if (code === 0) return resolve();
          const how = signal ? `was stopped by ${signal}` : `exited with code ${code}`;
          reject(new EditorError(`the editor '${cmd.line}' ${how}`));
        };
        // what the editor started is ended too before the CLI goes on (and exits)
        void (stopping ?? Promise.resolve()).then(settle, settle);
      });
    });
  } finally {
    process.removeListener('SIGINT', ignore);
  }
}
