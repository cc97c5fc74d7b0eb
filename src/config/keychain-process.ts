// Each call to the OS keychain runs in a Node process of its own, which is killed when the caller
// stops waiting. A locked keyring answers only once someone unlocks it, and its prompt may be on a
// screen nobody sees: the call then never returns. In this process such a call could not be given
// up: the binding's constructor blocks the event loop, and a call still running on a thread (its
// worker pool's, or a worker_thread's) holds the process at exit, process.exit() included. The cost
// is the start of that process on every use of a key kept in the keychain (bench/keychain.js).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export type KeychainRequest =
  | { op: 'get' | 'delete'; service: string; account: string }
  | { op: 'set'; service: string; account: string; key: string };

// The process: reads one request line on stdin, answers one JSON line on stdout, and exits. Its
// stdin stays open while the caller waits: its end means the caller is gone, so it ends too (killed
// by itself: a call still pending would hold an orderly exit). On Linux the Secret Service only:
// the binding would otherwise fall back to the kernel's keyring, which forgets every key at reboot.
const PROGRAM = `'use strict';
let line = '';
let asked = false;
let answered = false;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  line += chunk;
  if (asked || !line.includes('\\n')) return;
  asked = true;
  ask(JSON.parse(line.slice(0, line.indexOf('\\n'))));
});
process.stdin.on('end', () => answered || process.kill(process.pid, 'SIGKILL'));
function answer(value) {
  answered = true;
  process.stdout.write(JSON.stringify(value) + '\\n', () => process.exit(0));
}
async function ask({ binding, op, service, account, key }) {
  try {
    const { AsyncEntry } = require(binding);
    const entry = new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
    const value = op === 'get' ? await entry.getPassword()
      : op === 'set' ? await entry.setPassword(key)
      : await entry.deleteCredential();
    answer({ value: value === undefined ? null : value });
  } catch (err) {
    answer({ error: String((err && err.message) || err) });
  }
}
`;

/** At most this much of what the process says on stderr is kept (a reason for a failure). */
const STDERR_KEPT = 4096;

/**
 * Runs `request` in a keychain process; `signal` stops it (the process is killed). The key travels
 * on the process's stdin and stdout only, never in its arguments.
 */
export function inKeychainProcess<T>(request: KeychainRequest, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('stopped before it began'));
    let binding: string;
    try {
      binding = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    } catch (err) {
      return reject(err);
    }
    const child = spawn(process.execPath, ['-e', PROGRAM], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    let out = '';
    let err = '';
    const stop = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
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
