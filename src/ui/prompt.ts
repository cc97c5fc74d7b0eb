// Questions for a person at a terminal, asked on stderr so stdout stays data. Callers check
// `ctx.canPrompt` first; @inquirer/prompts loads only when a question is actually asked.
import type { Context } from '../cli/context.js';
import { InterruptedError } from '../cli/errors.js';

async function prompts() {
  return import('../vendor/inquirer.js');
}

function streams(ctx: Context) {
  return { input: ctx.io.stdin, output: ctx.io.stderr as unknown as NodeJS.WritableStream, clearPromptOnDone: false };
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

export async function askText(ctx: Context, message: string, opts: { default?: string; validate?: (v: string) => true | string } = {}): Promise<string> {
  const { input } = await prompts();
  return asking(input({ message, default: opts.default, validate: opts.validate }, streams(ctx)));
}

export async function askSecret(ctx: Context, message: string): Promise<string> {
  const { password } = await prompts();
  return asking(password({ message, mask: '*', validate: (v) => (v.trim() ? true : 'required') }, streams(ctx)));
}

export async function askChoice<T extends string>(ctx: Context, message: string, choices: readonly T[], def?: T): Promise<T> {
  const { select } = await prompts();
  return asking(select({ message, choices: choices.map((value) => ({ value, name: value })), default: def }, streams(ctx)));
}

export async function askConfirm(ctx: Context, message: string, def = false): Promise<boolean> {
  const { confirm } = await prompts();
  return asking(confirm({ message, default: def }, streams(ctx)));
}
