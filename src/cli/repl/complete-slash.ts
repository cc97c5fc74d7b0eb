// Tab in the REPL: slash command names, then what a command's own completion offers (skill names, say).
import { terminalSafe } from '../../ui/terminal-safe.js';
import type { SlashCommand } from './types.js';

export async function completeSlash(line: string, commands: Map<string, SlashCommand>): Promise<[string[], string]> {
  const m = /^\/(\S*)(\s+(\S*))?$/.exec(line);
  if (!m) return [[], line];
  if (m[2] === undefined) {
    const names = [...commands.keys()].filter((n) => n.startsWith(m[1]!.toLowerCase())).map((n) => `/${n}`);
    // one match: completed with the space its argument (a skill name) follows
    return [names.length === 1 ? [`${names[0]} `] : names, line];
  }
  const partial = m[3] ?? '';
  const words = (await commands.get(m[1]!.toLowerCase())?.complete?.(partial)) ?? [];
  // readline lists and inserts these as they are: a name from the service with a control character is not offered
  return [words.filter((w) => w.startsWith(partial) && terminalSafe(w) === w), partial];
}
