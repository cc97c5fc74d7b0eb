// The frame writer: lines clipped by display width (wide characters and escape sequences never cut),
// only changed rows written, one write per frame, never a scroll: checked on the bytes written and on
// a real terminal emulator (xterm.js) for what a person would see.
import { describe, expect, it } from 'vitest';
import { FrameWriter, clipLine } from '../../src/ui/screen/frame.js';
import { ours } from '../../src/ui/terminal-safe.js';
import { textWidth } from '../../src/ui/width.js';
import { screenText } from '../helpers/screen.js';

const red = (s: string) => ours('\x1b[31m') + s + ours('\x1b[39m');

/** An output that keeps each write. */
function recorder() {
  const writes: string[] = [];
  return { writes, write: (chunk: string) => void writes.push(chunk) };
}

describe('clipLine', () => {
  it('cuts at the width by display columns, a wide character never in half', () => {
    expect(clipLine('abcdef', 4)).toEqual({ text: 'abcd', width: 4 });
    expect(clipLine('a中文', 4)).toEqual({ text: 'a中', width: 3 });
    expect(clipLine('ab😀c', 3)).toEqual({ text: 'ab', width: 2 });
    expect(clipLine('😀😀', 4)).toEqual({ text: '😀😀', width: 4 });
    expect(clipLine('short', 10)).toEqual({ text: 'short', width: 5 });
  });

  it('keeps combining marks with the character they follow (they take no column)', () => {
    expect(clipLine('e\u0301x', 1)).toEqual({ text: 'e\u0301', width: 1 });
  });

  it('keeps our colour sequences whole, counts them as no column, and resets colour at the end', () => {
    const { text, width } = clipLine(red('abcdef') + 'gh', 3);
    expect(text).toBe('\x1b[31mabc\x1b[0m');
    expect(width).toBe(3);
  });

  it('shows the control characters of untrusted text instead of obeying them', () => {
    expect(clipLine('a\x1b[2Jb\x07', 20).text).toBe('a^[[2Jb^G');
    // a cut through what the ESC became is a cut through visible text, not through a sequence
    expect(clipLine('\x1b[31mred', 3).text).toBe('^[[');
  });

  it('draws a tab as spaces to its stop and a line break as a space, within the width', () => {
    expect(clipLine('ab\tc', 20)).toEqual({ text: 'ab      c', width: 9 });
    expect(clipLine('ab\tc', 5)).toEqual({ text: 'ab   ', width: 5 });
    expect(clipLine('a\nb', 5).text).toBe('a b');
  });
});

describe('FrameWriter', () => {
  const size = { columns: 10, rows: 4 };

  it('draws each line at its row with one write, erasing the rest of each row and the rows below', () => {
    const out = recorder();
    expect(new FrameWriter(out).draw(['one', 'two'], size)).toBe(true);
    expect(out.writes).toEqual(['\x1b[1;1Hone\x1b[K\x1b[2;1Htwo\x1b[K\x1b[3;1H\x1b[J']);
  });

  it('does not erase after a row drawn to its last column (the erase would take its last character on xterm)', () => {
    const out = recorder();
    new FrameWriter(out).draw(['1234567890', '中文字中文'], size);
    expect(out.writes[0]).toBe('\x1b[1;1H1234567890\x1b[2;1H中文字中文\x1b[3;1H\x1b[J');
  });

  it('writes nothing when the frame is unchanged, and only the changed rows when one is', () => {
    const out = recorder();
    const frames = new FrameWriter(out);
    frames.draw(['one', 'two', 'three'], size);
    expect(frames.draw(['one', 'two', 'three'], size)).toBe(false);
    expect(out.writes).toHaveLength(1);
    frames.draw(['one', 'TWO', 'three'], size);
    expect(out.writes[1]).toBe('\x1b[2;1HTWO\x1b[K');
  });

  it('erases the rows a shorter frame no longer covers', () => {
    const out = recorder();
    const frames = new FrameWriter(out);
    frames.draw(['one', 'two', 'three'], size);
    frames.draw(['one'], size);
    expect(out.writes[1]).toBe('\x1b[2;1H\x1b[J');
  });

  it('draws the whole frame again after invalidate() or a change of size', () => {
    const out = recorder();
    const frames = new FrameWriter(out);
    frames.draw(['one'], size);
    frames.invalidate();
    frames.draw(['one'], size);
    frames.draw(['one'], { columns: 20, rows: 4 });
    expect(out.writes).toEqual([out.writes[0], out.writes[0], out.writes[0]]);
  });

  it('never writes more lines than rows nor a line wider than the width', () => {
    const out = recorder();
    new FrameWriter(out).draw(['x'.repeat(30), '中'.repeat(30), 'c', 'd', 'e', 'f'], size);
    const rows = out.writes[0]!.split(/\x1b\[\d+;1H/).slice(1);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(textWidth(row.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''))).toBeLessThanOrEqual(10);
  });

  it('on a real terminal: lines clipped, full-width rows kept whole, no scroll, old rows erased', async () => {
    const out = recorder();
    const frames = new FrameWriter(out);
    const wide = { columns: 8, rows: 3 };
    frames.draw(['12345678', 'ab中文字xyz', red('red text here'), 'never drawn'], wide);
    expect(await screenText(out.writes, 8, 3)).toBe('12345678\nab中文字\nred text');
    frames.draw(['12345678', 'gone'], wide);
    // no scrollback line: nothing scrolled
    expect(await screenText(out.writes, 8, 3)).toBe('12345678\ngone');
  });
});
