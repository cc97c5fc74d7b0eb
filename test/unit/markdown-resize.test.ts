// A terminal resized while a reply streams (issue 13, attack review): the tail's plain rows, re-wrapped
// by the terminal, are all erased (none left stale), and the blocks after the resize are laid out at
// the new width. On xterm.js, which re-wraps rows on resize as tmux, VTE, iTerm2 and kitty do.
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { layout, md } from '../helpers/markdown.js';
import { highlighter } from '../../src/ui/markdown/code.js';
import { BlockRenderer } from '../../src/ui/markdown/render.js';
import { MarkdownStream } from '../../src/ui/markdown/stream.js';
import { unmark } from '../../src/ui/terminal-safe.js';

const WORDS = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(2, '0')}x`);

/** The screen's lines, rows the terminal wrapped joined back. */
function logicalLines(term: InstanceType<typeof xterm.Terminal>): string[] {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) {
    const row = buffer.getLine(i)!;
    const text = row.translateToString(true);
    if (row.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines;
}

async function streamed(from: number, to: number, resizeAfter: number): Promise<string[]> {
  const term = new xterm.Terminal({ cols: from, rows: 30, scrollback: 1000, convertEol: true, allowProposedApi: true });
  const write = (text: string) => new Promise<void>((resolve) => term.write(unmark(text), resolve));
  const l = layout(from, { rows: 30 });
  const s = new MarkdownStream(l, new BlockRenderer(l, md, highlighter));
  const pieces = ['Intro para.\n\n', ...WORDS.map((w) => `${w} `), '\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nlast line\n'];
  for (const [i, piece] of pieces.entries()) {
    await write(s.push(piece));
    if (i === resizeAfter) {
      term.resize(to, 30);
      l.width = to;
    }
  }
  s.finish();
  await write(s.end());
  const lines = logicalLines(term);
  term.dispose();
  return lines;
}

describe('a terminal resized mid-reply', () => {
  it.each([
    [80, 40],
    [80, 25],
    [40, 100],
  ])('from %i to %i columns: every word once (no stale row of the tail), the table and the last line drawn', async (from, to) => {
    const lines = await streamed(from, to, 30);
    const text = lines.join("\n");
    for (const w of WORDS) expect(text.split(w).length - 1, `${w} in\n${text}`).toBe(1);
    expect(text).not.toContain('|---|');
    expect(lines.filter((line) => line.trim() === 'last line')).toHaveLength(1);
    expect(text.match(/Intro para\./g)).toHaveLength(1);
  });
});
