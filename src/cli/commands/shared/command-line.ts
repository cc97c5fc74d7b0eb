// A command of ours that a hint tells the user to run (again): with the flags of this run that choose
// the service (--profile, --base-url), so that it reaches the same account; never a key (a key given
// with --api-key is not repeated, and a password in the base URL shows masked). Each word is quoted
// for a POSIX shell when it needs to be.
import { maskUrl } from '../../../ui/mask.js';
import { shellWord } from '../../../ui/shell-word.js';
import type { Context } from '../../context.js';

export function ourCommand(ctx: Context, ...words: string[]): string {
  const line = ['superagent'];
  if (ctx.globals.profile !== undefined) line.push('--profile', shellWord(ctx.globals.profile));
  if (ctx.globals.baseUrl !== undefined) line.push('--base-url', shellWord(maskUrl(ctx.globals.baseUrl)));
  return [...line, ...words.map(shellWord)].join(' ');
}
