// Questions for a person at a terminal, asked on stderr so stdout stays data. Callers check
// `ctx.canPrompt` first; @inquirer/prompts loads only when a question is actually asked.
import { InterruptedError, TerminatedError } from '../core/errors.js';
import { maskUrls } from '../core/mask.js';
import { endIsHangUp } from './terminal-gone.js';
import { toTerminal } from './terminal-safe.js';

export interface Prompter {
  /**
   * `expect`: whether an answer is the one a confirmation wants (a name typed to destroy): any other is marked ✘,
   * not ✔
   */
  text(
    message: string,
    opts?: { default?: string; validate?: (v: string) => true | string; expect?: (answer: string) => boolean },
  ): Promise<string>;
  secret(message: string): Promise<string>;
  choice<T extends string>(message: string, choices: readonly T[], def?: T): Promise<T>;
  confirm(message: string, def?: boolean): Promise<boolean>;
}

interface Streams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number };
  stderr: unknown;
}

/** SIGTERM and SIGHUP, from the Context's signals (src/ui does not know the Context). */
export interface TerminateSignal {
  onTerminate(handler: () => void): () => void;
  /** the terminal gone: listened for only while a question holds it (a listener would undo `nohup`) */
  onHangup?(handler: () => void): () => void;
}

/**
 * Ctrl-C inside a prompt becomes exit 130, like anywhere else. SIGTERM (SIGHUP) ends the prompt through its
 * own cleanup, which shows the cursor a select prompt hid (else the process died with it hidden), then exit 143 (129).
 * The end of a terminal's input is a hang-up too (`endIsHangUp`): the prompt library would wait on, and the
 * process exit in the middle of the question, nothing else being left to do.
 */
async function asking<T>(
  input: Streams['stdin'],
  ask: (signal: AbortSignal) => Promise<T>,
  stops?: TerminateSignal,
): Promise<T> {
  const ended = new AbortController();
  const unlisten = [stops?.onTerminate(() => ended.abort('SIGTERM')), stops?.onHangup?.(() => ended.abort('SIGHUP'))];
  const onEnd = () => {
    if (endIsHangUp(input)) ended.abort('SIGHUP');
  };
  input.on('end', onEnd);
  unlisten.push(() => void input.removeListener('end', onEnd));
  try {
    return await ask(ended.signal);
  } catch (err) {
    if (ended.signal.aborted) throw new TerminatedError(ended.signal.reason === 'SIGHUP' ? 'SIGHUP' : 'SIGTERM');
    if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError')
      throw new InterruptedError();
    throw err;
  } finally {
    for (const stop of unlisten) stop?.();
  }
}

/**
 * A question as the terminal may show it: the prompt library writes it straight to the terminal, so
 * an agent's name in it is made safe here and our own styling put back (terminal-safe.ts).
 */
// a question may name a URL (the key's service): its credentials never reach the screen
const shown = (text: string) => toTerminal(maskUrls(text));

/**
 * A confirmation that wants one answer: once answered, ✔ only for it and ✘ for any other (the prompt
 * library's ✔ says "answered", which read as "confirmed" above "does not match"). The prefix is read
 * as the answer is drawn; the transformer sees the answer first.
 */
function expecting(wanted: ((answer: string) => boolean) | undefined) {
  if (wanted === undefined) return {};
  let typed = '';
  return {
    transformer: (value: string) => ((typed = value), value),
    theme: {
      prefix: {
        idle: '?',
        get done() {
          return wanted(typed) ? '✔' : '✘';
        },
      },
    },
  };
}

/** Prompts on the terminal through @inquirer/prompts. */
export function terminalPrompter(io: Streams, stops?: TerminateSignal): Prompter {
  const prompts = () => import('../vendor/inquirer.js');
  const ask = <T>(question: (signal: AbortSignal) => Promise<T>) => asking(io.stdin, question, stops);
  const streams = (signal: AbortSignal) => ({
    input: io.stdin,
    output: io.stderr as NodeJS.WritableStream,
    clearPromptOnDone: false,
    signal,
  });
  return {
    async text(message, opts = {}) {
      const { input } = await prompts();
      const { default: def, validate } = opts;
      const options = { message: shown(message), default: def, validate, ...expecting(opts.expect) };
      return ask((signal) => input(options, streams(signal)));
    },
    async secret(message) {
      const { password } = await prompts();
      const options = { message: shown(message), mask: '*', validate: (v: string) => (v.trim() ? true : 'required') };
      return ask((signal) => password(options, streams(signal)));
    },
    async choice(message, choices, def) {
      const { select } = await prompts();
      const options = {
        message: shown(message),
        choices: choices.map((value) => ({ value, name: shown(value) })),
        default: def,
      };
      return ask((signal) => select(options, streams(signal)));
    },
    async confirm(message, def = false) {
      const { confirm } = await prompts();
      return ask((signal) => confirm({ message: shown(message), default: def }, streams(signal)));
    },
  };
}
