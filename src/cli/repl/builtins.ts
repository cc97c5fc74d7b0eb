// The slash commands every REPL has: /help, /new, /session, /exit.
import type { ReplSession, SlashCommand } from './types.js';

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
  const lines = [
    'Commands:',
    ...rows.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`),
    '',
    'Keys and input:',
    '  end a line with \\ to continue on the next one, or put lines between """ and """',
    '  //text sends "/text"; arrow keys recall earlier lines',
    '  Ctrl-C cancels a reply (at an empty prompt, twice, leaves); Ctrl-D or /exit leaves',
  ];
  repl.printer.data(lines.join('\n'));
}
