// Text from the service may be of any size (a 100 MB agent name once killed
// `list` on a terminal with "JavaScript heap out of memory"). Measuring and cutting text for the
// terminal looks at a bounded prefix only: a width is counted no further than any terminal is wide.
import { describe, expect, it } from 'vitest';
import { clipText, visibleWidth, wrapWords } from '../../src/ui/format.js';

const HUGE = 5_000_000;

describe('visibleWidth', () => {
  it(
    'counts the columns a terminal draws (an emoji or a CJK ' +
      'character 2, a combining mark 0), our colours as nothing',
    () => {
      expect(visibleWidth('a😀b')).toBe(4);
      expect(visibleWidth('東京')).toBe(4);
      expect(visibleWidth('e\u0301')).toBe(1);
      expect(visibleWidth('\u001b[32mok\u001b[39m')).toBe(2);
      expect(visibleWidth('')).toBe(0);
    },
  );

  it('counts no further than 4096 columns, however long the text (no terminal is wider)', () => {
    expect(visibleWidth('x'.repeat(4096))).toBe(4096);
    expect(visibleWidth('x'.repeat(HUGE))).toBe(4096);
    expect(visibleWidth('😀'.repeat(HUGE))).toBe(4096);
  });
});

describe('clipText', () => {
  it('cuts at a character, never inside one, with …, to at most the columns given', () => {
    expect(clipText('😀😀😀', 3)).toBe('😀…');
    expect(clipText('😀😀😀', 4)).toBe('😀…');
    expect(clipText('😀😀😀', 6)).toBe('😀😀😀');
    expect(clipText('東京', 2)).toBe('…');
    expect(clipText('abc', 3)).toBe('abc');
    expect(clipText('x'.repeat(HUGE), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(clipText('😀'.repeat(HUGE), 5)).toBe('😀😀…');
  });
});

describe('wrapWords', () => {
  it('gives a word longer than the width a line of its own, whatever its length', () => {
    const word = 'y'.repeat(HUGE);
    const lines = wrapWords(`short ${word} tail`, 20);
    expect(lines.map((l) => l.length)).toEqual([5, HUGE, 4]);
  });

  it('fills lines up to the width, counting columns', () => {
    expect(wrapWords('😀😀 😀😀 😀😀', 9)).toEqual(['😀😀 😀😀', '😀😀']);
    expect(wrapWords('😀😀 😀😀 😀😀', 8)).toEqual(['😀😀', '😀😀', '😀😀']);
  });
});
