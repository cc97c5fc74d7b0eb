// Questions for a person at a terminal, asked on stderr so stdout stays data. Callers check
// `ctx.canPrompt` first; @inquirer/prompts loads only when a question is actually asked.
import { InterruptedError } from '../core/errors.js';
import { toTerminal } from './terminal-safe.js';

export interface Prompter {
  text(message: string, opts?: { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  secret(message: string): Promise<string>;
  choice<T extends string>(message: string, choices: readonly T[], def?: T): Promise<T>;
  confirm(message: string, def?: boolean): Promise<boolean>;
}

interface Streams {
  stdin: NodeJS.ReadableStream;
  stderr: unknown;
}

/** Ctrl-C inside a prompt becomes exit 130, like anywhere else. */
async function asking<T>(question: Promise<T>): Promise<T> {
  try {
    return await question;
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError') throw new InterruptedError();
    throw err;
  }
}

/**
 * A question as the terminal may show it: the prompt library writes it straight to the terminal, so
 * an agent's name in it is made safe here and our own styling put back (terminal-safe.ts).
 */
const shown = (text: string) => toTerminal(text);

/** Prompts on the terminal through @inquirer/prompts. */
export function terminalPrompter(io: Streams): Prompter {
  const prompts = () => import('../vendor/inquirer.js');
  const streams = { input: io.stdin, output: io.stderr as NodeJS.WritableStream, clearPromptOnDone: false };
  return {
    async text(message, opts = {}) {
      const { input } = await prompts();
      return asking(input({ message: shown(message), default: opts.default, validate: opts.validate }, streams));
    },
    async secret(message) {
      const { password } = await prompts();
      return asking(password({ message: shown(message), mask: '*', validate: (v) => (v.trim() ? true : 'required') }, streams));
    },
    async choice(message, choices, def) {
      const { select } = await prompts();
      return asking(select({ message: shown(message), choices: choices.map((value) => ({ value, name: shown(value) })), default: def }, streams));
    },
    async confirm(message, def = false) {
      const { confirm } = await prompts();
      return asking(confirm({ message: shown(message), default: def }, streams));
    },
  };
}
