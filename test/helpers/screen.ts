// A terminal in memory (xterm.js, headless): what a person would see after some output, as text,
// scrollback included. The renderer's streaming redraws (cursor up, erase below) are checked
// against a real terminal emulator, not against our own idea of one.
import xterm from '@xterm/headless';

const { Terminal } = xterm;

/** The screen's text after `output` (a tty turns \n into \r\n: convertEol), trailing spaces and blank lines dropped. */
export async function screenText(output: string | string[], cols: number, rows = 24): Promise<string> {
  const term = new Terminal({ cols, rows, scrollback: 100_000, convertEol: true, allowProposedApi: true });
  for (const piece of typeof output === 'string' ? [output] : output)
    await new Promise<void>((resolve) => term.write(piece, resolve));
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
  term.dispose();
  return lines.join('\n').replace(/\s+$/, '');
}
