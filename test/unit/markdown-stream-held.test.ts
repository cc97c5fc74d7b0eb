// What the streaming renderer holds of a reply (src/ui/markdown/stream.ts): a block is held until it
// is complete, to be drawn rendered; a block longer than HELD_CHARS (one paragraph of megabytes, a line
// that never ends, blocks piling up for a painter that never loads) is not held whole. From there the
// rest of the reply is written as it came, unrendered, every character of it.
import { describe, expect, it } from 'vitest';
import { highlighter } from '../../src/ui/markdown/code.js';
import { BlockRenderer } from '../../src/ui/markdown/render.js';
import { HELD_CHARS, MarkdownStream } from '../../src/ui/markdown/stream.js';
import { unmark } from '../../src/ui/terminal-safe.js';
import { layout, md } from '../helpers/markdown.js';

const LINE = `${'word '.repeat(15)}\n`;
const ERASE = /^\r\x1b\[2K(\x1b\[1A\x1b\[2K)+/;

function rendering(painted = true) {
  const l = layout(80, { rows: 24 });
  return new MarkdownStream(l, painted ? new BlockRenderer(l, md, highlighter) : undefined);
}

/** Pushes `piece` until the stream has held more than HELD_CHARS; what it wrote for the last one. */
function pushPastTheCap(s: MarkdownStream, piece: string): { last: string; pushed: number } {
  let pushed = 0;
  let last = '';
  while (pushed * piece.length <= HELD_CHARS) {
    last = s.push(piece);
    pushed++;
  }
  return { last, pushed };
}

describe('a block longer than HELD_CHARS is not held to be drawn', () => {
  it('one paragraph past it: the tail erased, what was held written as it came, then each piece as it comes', () => {
    const s = rendering();
    expect(s.push('# Title\n\n')).toContain('Title');
    const { last, pushed } = pushPastTheCap(s, LINE);
    // the plain tail (a screen's worth) goes, and every line held is written once, unrendered
    const written = unmark(last);
    expect(written).toMatch(ERASE);
    const held = written.replace(ERASE, '');
    expect(held.endsWith(LINE.repeat(pushed))).toBe(true);
    expect(held.length - LINE.length * pushed).toBeLessThan(2 * LINE.length);
    expect(s.push(LINE)).toBe(LINE);
    expect(s.push('\n\n**after**\n')).toBe('\n\n**after**\n');
    s.finish();
    expect(s.end()).toBe('');
  });

  it('a line that never ends: the same, and the line ended at the end of the reply', () => {
    const s = rendering();
    pushPastTheCap(s, 'x'.repeat(1000));
    expect(s.push('yyy')).toBe('yyy');
    expect(s.hide()).toBe('\n'); // a tool line starts on a line of its own
    expect(s.push('zzz')).toBe('zzz');
    s.finish();
    expect(s.end()).toBe('\n');
  });

  it('complete blocks waiting for a painter that has not loaded: the same', () => {
    const s = rendering(false);
    pushPastTheCap(s, 'a short paragraph\n\n');
    expect(s.push('more\n\n')).toBe('more\n\n');
    // the painter arriving later draws nothing more: what was held is out already
    const l = layout(80, { rows: 24 });
    expect(s.ready(new BlockRenderer(l, md, highlighter))).toBe('');
    expect(s.stalled).toBeUndefined();
  });
});
