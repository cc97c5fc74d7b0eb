// The REPL's input side: lines from readline waited for one at a time, the stream readline draws on
// (muted while a reply streams), a source that stops at Ctrl-C, and messages that span several lines.
import { EventEmitter } from 'node:events';
import { emit, usableColumns, type OutStream } from '../../ui/printer.js';

/** the terminal marks what is pasted (bracketed paste), so pasted lines are one message */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';

export type Input = { kind: 'line'; text: string; unseen: boolean } | { kind: 'eof' } | { kind: 'leave' };

/** Lines (and the end) from readline, waited for one at a time. */
export class InputQueue {
  private readonly items: Input[] = [];
  private waiter: ((input: Input) => void) | undefined;

  push(input: Input): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(input);
    else this.items.push(input);
  }

  shift(): Input | undefined {
    return this.items.shift();
  }

  next(): Promise<Input> {
    const queued = this.items.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiter = resolve));
  }
}

/**
 * readline's output: stderr, muted while a reply or a command runs, so keys typed meanwhile (kept
 * by readline for the next prompt) cannot break into the streamed text.
 */
export class PromptOutput extends EventEmitter {
  muted = false;
  private readonly onResize = () => this.emit('resize');

  constructor(private readonly target: OutStream) {
    super();
    (target as Partial<EventEmitter>).on?.('resize', this.onResize);
  }

  get isTTY(): boolean {
    return this.target.isTTY === true;
  }

  /** readline lays out the line it edits by this: never 0 or absurd (readline would divide by it) */
  get columns(): number {
    return usableColumns(this.target) ?? 80;
  }

  write(chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean {
    if (!this.muted) this.target.write(String(chunk));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(done as () => void);
    return true;
  }

  /** Unmuted text that readline does not know about (its idea of the cursor stays right). */
  raw(text: string): void {
    emit(this.target, text);
  }

  /** The stream itself, for writers that make their text safe themselves (reportError): unmuted. */
  get stream(): OutStream {
    return this.target;
  }

  /** A control sequence of our own for the terminal (bracketed paste on and off): written as it is. */
  control(sequence: string): void {
    if (this.target.isTTY) this.target.write(sequence);
  }

  dispose(): void {
    (this.target as Partial<EventEmitter>).removeListener?.('resize', this.onResize);
  }
}

/** Iterates `source` until `signal` aborts, then stops at once even if the source is still waiting. */
export async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  // one pending step at a time, rejected by an abort (no reaction piles up on a long reply)
  let rejectStep: ((reason: unknown) => void) | undefined;
  const onAbort = () => rejectStep?.(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const result = await new Promise<IteratorResult<T>>((resolve, reject) => {
        rejectStep = reject;
        it.next().then(resolve, reject);
      });
      rejectStep = undefined;
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Tell the source to stop (closes the request); do not wait for it.
    if (!finished) void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}

const BLOCK = '"""';

/** How a message of several lines is kept in the history: one entry, its line breaks shown as ⏎. */
export const HISTORY_BREAK = '⏎';

export interface Message {
  text: string;
  /** the lines as they were typed or pasted (readline's history has one entry for each) */
  lines: string[];
}

/**
 * Joins a message typed over several lines: `\` at the end of a line continues it; lines between
 * `"""` and `"""` are one message; lines pasted together are one message (bracketed paste); an
 * entry recalled from the history with ⏎ in it is its lines again.
 */
export class MultilineInput {
  /** the lines typed so far of a message not complete yet */
  private pending: { lines: string[]; block: boolean } | undefined;
  private typed: string[] = [];

  get active(): boolean {
    return this.pending !== undefined;
  }

  reset(): void {
    this.pending = undefined;
    this.typed = [];
  }

  /** A line that arrived inside a paste: part of the message being written, never its end. */
  hold(line: string): void {
    this.typed.push(line);
    (this.pending ??= { lines: [], block: false }).lines.push(line);
  }

  /** The whole message once `line` completes it; undefined while more lines are to come. */
  add(line: string): Message | undefined {
    // recalled from the history: the message as it was sent (no `\` or `"""` left to read)
    if (line.includes(HISTORY_BREAK) && !this.pending)
      return { text: line.split(HISTORY_BREAK).join('\n'), lines: [line] };
    this.typed.push(line);
    const text = this.join(line);
    if (text === undefined) return undefined;
    const lines = this.typed;
    this.typed = [];
    return { text, lines };
  }

  private join(line: string): string | undefined {
    const p = this.pending;
    if (p?.block) {
      if (!line.trimEnd().endsWith(BLOCK)) {
        p.lines.push(line);
        return undefined;
      }
      const last = line.trimEnd().slice(0, -BLOCK.length);
      if (last !== '') p.lines.push(last);
      this.pending = undefined;
      return p.lines.join('\n');
    }
    if (line.endsWith('\\')) {
      (this.pending ??= { lines: [], block: false }).lines.push(line.slice(0, -1));
      return undefined;
    }
    if (p) {
      this.pending = undefined;
      // a paste that ended with a line break leaves an empty last line: not part of the message
      return (line === '' ? p.lines : [...p.lines, line]).join('\n');
    }
    const trimmed = line.trim();
    if (trimmed.startsWith(BLOCK)) {
      if (trimmed.length >= 2 * BLOCK.length && trimmed.endsWith(BLOCK))
        return trimmed.slice(BLOCK.length, -BLOCK.length);
      const first = trimmed.slice(BLOCK.length);
      this.pending = { lines: first === '' ? [] : [first], block: true };
      return undefined;
    }
    return line;
  }
}
