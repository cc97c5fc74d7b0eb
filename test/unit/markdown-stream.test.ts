// Markdown rendered as it streams (src/ui/markdown/stream.ts), checked on a real terminal emulator
// (xterm.js, test/helpers/screen.ts): however a reply is cut into pieces, and wherever tool lines
// come between them, the final screen is the screen of the whole reply rendered at once; and each
// block is drawn rendered as soon as it is complete, its tail plain until then.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture, renderWhole, streamOutputs, type StreamOptions } from '../helpers/markdown.js';
import { cutAt } from '../helpers/cut.js';
import { screenText } from '../helpers/screen.js';
import { unmark } from '../../src/ui/terminal-safe.js';

const REPLIES = ['trade-setup', 'macro-screen', 'squeeze-scan', 'code-block'].map(fixture);

const cut = (text: string, at: number[]): string[] => cutAt(text, at);

/** Markdown-ish text from the pieces replies are made of (random structure, any line breaks). */
const markdownish = fc
  .array(
    fc.constantFrom(
      '# Head',
      '## Sub\n',
      'para text ',
      'more words here ',
      '**bold** ',
      '*em* ',
      '`code` ',
      '[link](https://x.io/a) ',
      '\n',
      '\n\n',
      '- item\n',
      '  - nested\n',
      '1. first\n',
      '> quote\n',
      '>\n',
      '| a | b |\n|---|--:|\n| 1 | 2 |\n',
      '```js\nconst x = 1;\n',
      '```\n',
      '---\n',
      'Title\n===\n',
      '    indented\n',
      'a\tb ',
      'ünïcødé 東京 ',
      'long-word-'.repeat(12),
      '- [ ] task\n',
      '~~~\n',
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

async function expectSameScreen(
  text: string,
  pieces: string[],
  width: number,
  rows: number,
  so: StreamOptions = {},
): Promise<void> {
  const streamed = await screenText(streamOutputs(pieces, width, { rows }, so).map(unmark), width, rows);
  const whole = await screenText(renderWhole(text, width), width, rows);
  // the tool lines stay where they were drawn: the reply's own lines are what must match
  const own = streamed
    .split('\n')
    .filter((l) => !l.startsWith('⚙'))
    .join('\n');
  expect(own).toBe(whole);
}

describe('any cut of a reply ends in the screen of the whole reply', () => {
  it(
    'the fixture replies, cut anywhere, at 80 and 120 columns, the ' +
      'painter of blocks and the highlighter arriving at any point',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...REPLIES),
          fc.array(fc.nat(), { maxLength: 60 }),
          fc.constantFrom(80, 120),
          fc.option(fc.nat({ max: 30 })),
          fc.option(fc.nat({ max: 40 })),
          async (text, at, width, readyAfter, highlighterAfter) => {
            await expectSameScreen(text, cut(text, at), width, 40, {
              readyAfter: readyAfter ?? undefined,
              highlighterAfter: highlighterAfter ?? undefined,
            });
          },
        ),
        { numRuns: 60 },
      );
    },
  );

  it(
    'random Markdown, cut anywhere, on narrow and short terminals ' + '(the tail waits when it would fill the screen)',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          markdownish,
          fc.array(fc.nat(), { maxLength: 30 }),
          fc.integer({ min: 20, max: 100 }),
          fc.integer({ min: 3, max: 30 }),
          fc.option(fc.nat({ max: 20 })),
          fc.option(fc.nat({ max: 30 })),
          async (text, at, width, rows, readyAfter, highlighterAfter) => {
            await expectSameScreen(text, cut(text, at), width, rows, {
              readyAfter: readyAfter ?? undefined,
              highlighterAfter: highlighterAfter ?? undefined,
            });
          },
        ),
        { numRuns: 150 },
      );
    },
  );

  it('tool lines drawn between pieces take the tail away and it comes back after them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...REPLIES),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(fc.nat({ max: 20 }), { maxLength: 4 }),
        fc.option(fc.nat({ max: 20 })),
        fc.option(fc.nat({ max: 20 })),
        async (text, at, tools, readyAfter, highlighterAfter) => {
          await expectSameScreen(text, cut(text, at), 80, 40, {
            toolAfter: new Set(tools),
            readyAfter: readyAfter ?? undefined,
            highlighterAfter: highlighterAfter ?? undefined,
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('one character at a time', async () => {
    const text = REPLIES[0]!;
    await expectSameScreen(text, [...text], 80, 24);
  });
});

describe('blocks are drawn rendered as soon as they are complete', () => {
  const stages = (pieces: string[]) => streamOutputs(pieces, 80).map(unmark);

  it(
    'a heading at its line end; a paragraph at the blank ' + 'line after it; meanwhile the text is shown plain',
    async () => {
      const out = stages(['# Ti', 'tle\n', 'Some **bold', '** text', '\n\n', 'next']);
      expect(out[0]).toBe('# Ti');
      expect(await screenText(out.slice(0, 2), 80)).toBe('# Title');
      expect(await screenText(out.slice(0, 4), 80)).toBe('# Title\nSome **bold** text');
      expect(await screenText(out.slice(0, 5), 80)).toBe('# Title\nSome bold text');
      expect(await screenText(out, 80)).toBe('# Title\nSome bold text\n\nnext');
    },
  );

  it(
    'a list item when the next one starts; a line of code ' + 'at its own line end, coloured; a table when it ends',
    async () => {
      const out = streamOutputs(['- **a**\n- b\n', '```python\nx = 1\n', '| h |\n|---|\n| 1 |\n', '\nafter'], 80, {
        colour: true,
      }).map(unmark);
      expect(await screenText(out.slice(0, 1), 80)).toBe('• a\n- b');
      expect(await screenText(out.slice(0, 2), 80)).toBe('• a\n• b\n```python\nx = 1');
      expect(out[1]).toContain('\x1b[33m1\x1b[0m');
      expect(await screenText(out.slice(0, 3), 80)).toBe('• a\n• b\n```python\nx = 1\n| h |\n|---|\n| 1 |');
    },
  );

  it(
    'the first pieces show before the painter of blocks has loaded; blocks ' +
      'complete meanwhile wait, plain, and are drawn when it is ready',
    async () => {
      const out = streamOutputs(['# Title\n- **a**\n', '- b\n'], 80, {}, { readyAfter: 1 }).map(unmark);
      expect(out[0]).toBe('# Title\n- **a**\n');
      expect(await screenText(out.slice(0, 2), 80)).toBe('# Title\n- **a**\n- b');
      expect(await screenText(out.slice(0, 3), 80)).toBe('# Title\n• a\n- b');
      expect(await screenText(out, 80)).toBe('# Title\n• a\n• b');
    },
  );

  it('a fence waits for the highlighter, and the blocks after it with it; they are drawn when it comes', async () => {
    const out = streamOutputs(
      ['Intro\n\n```py\nx = 1\n', '```\n- a\n- b\n', 'end'],
      80,
      { colour: true },
      { highlighterAfter: 1 },
    ).map(unmark);
    expect(await screenText(out.slice(0, 1), 80)).toBe('Intro\n\n```py\nx = 1');
    expect(await screenText(out.slice(0, 2), 80)).toBe('Intro\n\n```py\nx = 1\n```\n- a\n- b');
    expect(await screenText(out.slice(0, 3), 80)).toBe('Intro\n\n```py\nx = 1\n```\n• a\n- b');
    expect(out[2]).toContain('\x1b[33m1\x1b[0m');
  });

  it('only the tail is ever erased: what was rendered is written once', () => {
    const text = REPLIES[1]!;
    const out = streamOutputs(cut(text, [7, 100, 101, 400, 900, 1200]), 80).join('');
    // each rendered line (one the plain text cannot show: a bullet, a table's or a rule's line) is written once
    const rendered = renderWhole(text, 80)
      .split('\n')
      .filter((l) => /[•◦│─]/.test(l));
    expect(rendered.length).toBeGreaterThan(10);
    for (const line of rendered) {
      expect(unmark(out).split(line).length - 1, line).toBe(1);
    }
  });

  it('an empty reply writes nothing; a reply without a final line break ends at the start of a line', async () => {
    expect(streamOutputs([''], 80).join('')).toBe('');
    const out = streamOutputs(['just text'], 80).map(unmark);
    expect(out.join('').endsWith('just text\n')).toBe(true);
  });
});
