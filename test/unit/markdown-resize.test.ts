// A terminal resized while a reply streams: the tail's plain rows, re-wrapped
// by the terminal, are all erased (none left stale), and the blocks after the resize are laid out at
// the new width. On xterm.js, which re-wraps rows on resize as tmux, VTE, iTerm2 and kitty do.
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { layout, md } from '../helpers/markdown.js';
import { highlighter } from '../../src/ui/markdown/code.js';
import { BlockRenderer } from '../../src/ui/markdown/render.js';
import { MarkdownStream } from '../../src/ui/markdown/stream.js';
import { unmark } from '../../src/ui/terminal-safe.js';
import { reflowOf, type Reflow } from '../../src/ui/markdown/reflow.js';

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

/**
 * `reflow`: 'ended' is xterm.js as VS Code runs it; 'all' is xterm.js re-wrapping the cursor's row too, as tmux does
 */
async function streamed(from: number, to: number, resizeAfter: number, reflow: Reflow = 'ended'): Promise<string[]> {
  const term = new xterm.Terminal({
    cols: from,
    rows: 30,
    scrollback: 1000,
    convertEol: true,
    allowProposedApi: true,
    reflowCursorLine: reflow === 'all',
  });
  const write = (text: string) => new Promise<void>((resolve) => term.write(unmark(text), resolve));
  const l = { ...layout(from, { rows: 30 }), reflow };
  const s = new MarkdownStream(l, new BlockRenderer(l, md, highlighter));
  const pieces = [
    'Intro para.\n\n',
    ...WORDS.map((w) => `${w} `),
    '\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nlast line\n',
  ];
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
    [80, 40, 'ended'],
    [80, 25, 'ended'],
    [40, 100, 'ended'],
    [80, 40, 'all'],
    [80, 30, 'all'],
    [40, 100, 'all'],
  ] as const)(
    'from %i to %i columns (a terminal that re-wraps %s rows): every word ' +
      'once (no stale row of the tail), the table and the last line drawn',
    async (from, to, reflow) => {
      const lines = await streamed(from, to, 30, reflow);
      const text = lines.join('\n');
      for (const w of WORDS) expect(text.split(w).length - 1, `${w} in\n${text}`).toBe(1);
      expect(text).not.toContain('|---|');
      expect(lines.filter((line) => line.trim() === 'last line')).toHaveLength(1);
      expect(text.match(/Intro para\./g)).toHaveLength(1);
    },
  );
});

describe('what a terminal re-wraps, from its environment', () => {
  it.each([
    [{ TMUX: '/tmp/tmux-0/default,1,0', TERM_PROGRAM: 'vscode' }, 'all'],
    [{ TERM: 'tmux-256color' }, 'all'],
    [{ TERM_PROGRAM: 'vscode' }, 'ended'],
    [{ TERM: 'xterm-256color', XTERM_VERSION: 'XTerm(390)' }, 'none'],
    [{ TERM: 'rxvt-unicode-256color' }, 'none'],
    [{ TERM: 'linux' }, 'none'],
    [{ TERM: 'xterm-256color', VTE_VERSION: '7600' }, 'all'],
    [{ TERM: 'xterm-kitty' }, 'all'],
  ] as const)('%j: %s', (env, reflow) => {
    expect(reflowOf(env)).toBe(reflow);
  });
});
