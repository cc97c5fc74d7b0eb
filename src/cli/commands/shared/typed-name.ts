// Destroying is for good: a person confirms by typing the agent's name (destroy, apply --prune).
import type { Context } from '../../context.js';

/**
 * Whether `typed` is `name`: blanks around it forgiven, and one text in
 * two Unicode forms is the same (a keyboard types é as one character).
 */
export function isTypedName(typed: string, name: string): boolean {
  return typed.trim().normalize('NFC') === name.normalize('NFC');
}

/** Asks for the name (`question` ends "Type its name to confirm:"); whether what was typed is it. */
export async function typedNameConfirms(ctx: Context, name: string, question: string): Promise<boolean> {
  const typed = await ctx.prompter.text(question, { expect: (answer) => isTypedName(answer, name) });
  return isTypedName(typed, name);
}
