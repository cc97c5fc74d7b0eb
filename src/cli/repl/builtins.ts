// The slash commands every REPL has: /help, /new, /session, /exit.
import type { ReplSession, SlashCommand } from './types.js';
import { wrapWords } from '../../ui/format.js';

/** `lead` then `text` wrapped to the terminal, its later lines under its first (no word cut by the terminal). */
function hanging(lead: string, text: string, columns: number): string[] {
  const [first = '', ...rest] = wrapWords(text, Math.max(20, columns - 1 - lead.length));
  return [lead + first, ...rest.map((l) => ' '.repeat(lead.length) + l)];
}

export function builtinCommands(): SlashCommand[] {
  return [
    { name: 'help', aliases: ['?'], summary: 'show the commands and keys', run: (_arg, s) => showHelp(s) },
    {
      name: 'new',
      summary: 'start a new conversation',
      run: (_arg, s) => {
        s.sessionId = undefined;
        s.note('New session: the next message starts a fresh conversation.');
      },
    },
    {
      name: 'session',
      summary: 'show the id of this conversation',
      run: (_arg, s) => {
        if (s.sessionId) s.printer.data(s.sessionId);
        else s.note('No session yet: the next message starts one.');
      },
    },
    { name: 'exit', aliases: ['quit'], summary: 'leave (or Ctrl-D)', run: () => 'exit' },
  ];
}

function showHelp(repl: ReplSession): void {
  const rows = repl.commandTable.map((c) => [`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.summary]);
  const width = Math.max(...rows.map(([left]) => left!.length));
  const columns = repl.printer.columns;
  const lines = [
    'Commands:',
    ...rows.flatMap(([left, right]) => hanging(`  ${left!.padEnd(width)}  `, right!, columns)),
    '',
    'Keys and input:',
    ...[
      'end a line with \\ to continue on the next one, or put lines between """ and """',
      '//text sends "/text"; arrow keys recall earlier lines',
      'Ctrl-C cancels a reply (at an empty prompt, twice, leaves); Ctrl-D or /exit leaves',
    ].flatMap((line) => hanging('  ', line, columns)),
  ];
  repl.printer.data(lines.join('\n'));
}
