// Each call to the OS keychain runs in a Node process of its own, which is killed when the caller
// stops waiting. A locked keyring answers only once someone unlocks it, and its prompt may be on a
// screen nobody sees: the call then never returns. In this process such a call could not be given
// up: the binding's constructor blocks the event loop, and a call still running on a thread (its
// worker pool's, or a worker_thread's) holds the process at exit, process.exit() included. The cost
// is the start of that process on every use of a key kept in the keychain (bench/keychain.js).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { KEYCHAIN_CHILD, REACHED } from './keychain-child.js';

export type KeychainRequest =
  | { op: 'get' | 'delete'; service: string; account: string }
  | { op: 'set'; service: string; account: string; key: string };

/** At most this much of what the process says on stderr is kept (a reason for a failure). */
const STDERR_KEPT = 4096;

export interface KeychainProcessOptions {
  /** stops it (the process is killed) */
  signal?: AbortSignal;
  /** called once the process says it has reached the keychain's service (keychain-child.ts) */
  reached?: () => void;
}

/**
 * Runs `request` in a keychain process. The key travels on the process's stdin and stdout only,
 * never in its arguments.
 */
export function inKeychainProcess<T>(request: KeychainRequest, options: KeychainProcessOptions = {}): Promise<T> {
  const { signal, reached } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('stopped before it began'));
    let binding: string;
    try {
      binding = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    } catch (err) {
      return reject(err);
    }
    const stdio: Array<'pipe'> = ['pipe', 'pipe', 'pipe'];
    const child = spawn(process.execPath, ['-e', KEYCHAIN_CHILD], { stdio, windowsHide: true });
    let out = '';
    let err = '';
    const stop = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      // said first, on a line of its own, when it is said at all
      if (!out.startsWith(`${REACHED}\n`)) return;
      out = out.slice(REACHED.length + 1);
      reached?.();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err = (err + chunk).slice(0, STDERR_KEPT)));
    child.stdin.on('error', () => undefined); // a process that died early: its exit says why
    child.on('error', (e) => {
      signal?.removeEventListener('abort', stop);
      reject(e);
    });
    child.on('close', (code, killedBy) => {
      signal?.removeEventListener('abort', stop);
      child.stdin.destroy();
      if (signal?.aborted) return reject(new Error('stopped waiting for it'));
      let answer: { value?: T; error?: string } | undefined;
      try {
        answer = JSON.parse(out) as typeof answer;
      } catch {
        // no answer: the process itself failed (the reason is on its stderr)
      }
      if (answer?.error !== undefined) return reject(new Error(answer.error));
      if (answer !== undefined) return resolve(answer.value as T);
      reject(new Error(err.trim() || `its process ended with ${killedBy ?? `exit code ${code}`}`));
    });
    child.stdin.write(`${JSON.stringify({ ...request, binding })}\n`);
  });
}
