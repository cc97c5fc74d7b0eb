// A spinner with elapsed seconds on stderr while waiting for a reply (assistant queries take minutes).
// Shown only where a person watches (the caller passes `enabled`: stderr a TTY, not --quiet); ora is
// loaded only when the spinner is actually drawn.
import { usableColumns, type OutStream } from './printer.js';

/** A wait longer than this gets a spinner (a terminal only) */
export const WAIT_SPINNER_MS = 300;

export interface Spinner {
  /** Clears the spinner; safe to call more than once, and before it ever appeared. */
  stop(): void;
}

export interface SpinnerOptions {
  enabled: boolean;
  /** appear only after this long (a quick answer shows no spinner at all) */
  delayMs?: number;
  /** false with NO_COLOR or --no-color */
  colour: boolean;
  /** the text beside the spinner, redrawn every second (default: the label and the seconds waited) */
  text?: (elapsedMs: number) => string;
  /** when the wait began (a spinner drawn again after another keeps counting from there); default now */
  startedAt?: number;
}

const NONE: Spinner = { stop() {} };

export function startSpinner(stream: OutStream, label: string, options: SpinnerOptions): Spinner {
  // ora divides by the width to count the lines it redraws: with none (0 columns) it would redraw
  // forever, so a terminal without a usable width gets no spinner at all
  if (!options.enabled || usableColumns(stream) === undefined) return NONE;
  const started = options.startedAt ?? Date.now();
  const text = () =>
    options.text ? options.text(Date.now() - started) : `${label} ${Math.floor((Date.now() - started) / 1000)}s`;
  let stopped = false;
  let ora: { stop(): unknown; text: string } | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const show = async () => {
    const { default: createOra } = await import('../vendor/ora.js');
    if (stopped) return;
    // discardStdin off: a REPL owns stdin; hideCursor off: no exit hook needed to restore it
    ora = createOra({
      text: text(),
      stream: stream as unknown as NodeJS.WritableStream,
      discardStdin: false,
      hideCursor: false,
      isEnabled: true,
      color: options.colour ? 'cyan' : false,
    }).start();
    ticker = setInterval(() => {
      if (ora) ora.text = text();
    }, 1000);
    ticker.unref();
  };
  const delay = setTimeout(() => void show(), options.delayMs ?? 0);
  delay.unref();
  return {
    stop() {
      stopped = true;
      clearTimeout(delay);
      if (ticker) clearInterval(ticker);
      ora?.stop();
      ora = undefined;
    },
  };
}
