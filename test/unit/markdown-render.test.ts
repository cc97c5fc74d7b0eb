// How each kind of Markdown looks on the terminal (src/ui/markdown/): wrapping, emphasis, code,
// links and hyperlinks, lists, quotes, tables; and that nothing the service sends, decoded or not,
// becomes a control character: only our own escapes (markers until written) do.
import { describe, expect, it } from 'vitest';
import { renderWhole, visible } from '../helpers/markdown.js';
import { hyperlinksSupported } from '../../src/ui/markdown/hyperlinks.js';
import { fitColumns } from '../../src/ui/markdown/table.js';
import { codePointWidth, textWidth } from '../../src/ui/width.js';
import { wrap } from '../../src/ui/markdown/wrap.js';
import { terminalSafe } from '../../src/ui/terminal-safe.js';

const plain = (text: string, width = 40) => renderWhole(text, width);
const colour = (text: string, width = 40, hyperlinks = false) =>
  visible(renderWhole(text, width, { colour: true, hyperlinks }));
const texts = (lines: ReturnType<typeof wrap>) => lines.map((l) => l.map((s) => s.text).join(''));

describe('wrapping', () => {
  it('breaks at spaces (a run is one), none at a line start or end; a word wider than the line is cut', () => {
    expect(texts(wrap([{ text: '  one two   three four five ' }], 9))).toEqual(['one two', 'three', 'four five']);
    expect(texts(wrap([{ text: 'abcdefghijkl xy' }], 5))).toEqual(['abcde', 'fghij', 'kl xy']);
  });

  it('counts columns, not characters: wide ones take two, combining marks none', () => {
    expect(textWidth('東京')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
    expect(texts(wrap([{ text: '東京 東京 東京' }], 9))).toEqual(['東京 東京', '東京']);
    expect(texts(wrap([{ text: '東京東京東京' }], 5))).toEqual(['東京', '東京', '東京']);
  });

  it('a URL wider than the line goes whole on a line of its own (cut, a click would open its first part)', () => {
    const url = 'https://d.example/very/long/path/that/goes/on/and/on/index.html';
    expect(texts(wrap([{ text: `A link to docs (${url}) end.` }], 30))).toEqual(['A link to docs', `(${url})`, 'end.']);
    expect(texts(wrap([{ text: `see ${url}` }], 30))).toEqual(['see', url]);
    expect(texts(wrap([{ text: 'not-a-url-but-a-long-word-here' }], 10))).toEqual([
      'not-a-url-',
      'but-a-long',
      '-word-here',
    ]);
  });

  it('keeps a word whole across styles (**bold**ness) and hard breaks', () => {
    expect(plain('**bold**ness is  \nhere')).toBe('boldness is\nhere\n');
  });
});

describe('inline text', () => {
  it('emphasis without its markers; code in colour, or between backticks without colour', () => {
    expect(plain('**strong** *em* ~~gone~~ `x = 1`')).toBe('strong em gone `x = 1`\n');
    expect(colour('**strong** *em* ~~gone~~ `x = 1`')).toBe('⟨1⟩strong⟨0⟩ ⟨3⟩em⟨0⟩ ⟨9⟩gone⟨0⟩ ⟨36⟩x = 1⟨0⟩\n');
  });

  it(
    'a link: a terminal hyperlink where supported, `text (url)` ' +
      'elsewhere; a bare URL shown once; an image as its alt text',
    () => {
      expect(plain('see [docs](https://d.io/x) or https://e.io or ![chart](https://c.io/c.png)', 80)).toBe(
        'see docs (https://d.io/x) or https://e.io or chart (https://c.io/c.png)\n',
      );
      expect(colour('[docs](https://d.io/x)', 40, true)).toBe('⟨link https://d.io/x⟩⟨4;94⟩docs⟨0⟩⟨/link⟩\n');
    },
  );

  it('file names are not links (bare URLs need their scheme)', () => {
    expect(plain('edit config.sh and main.py', 80)).toBe('edit config.sh and main.py\n');
  });

  it('a hyperlink carries only a web or mail address of printable ASCII; anything else is shown as text', () => {
    // javascript: is refused by markdown-it itself; the others by us
    const out = colour(
      '[a](javascript:alert(1)) [b](ftp://x.io) [c](<https://x.io/a b>) [d](<https://x.io/\u0007>) [e](mailto:a@b.io)',
      80,
      true,
    );
    expect([...out.matchAll(/⟨link ([^⟩]*)⟩/g)].map((m) => m[1])).toEqual([
      'https://x.io/a%20b',
      'https://x.io/%07',
      'mailto:a@b.io',
    ]);
    expect(out).toContain('[a](javascript:alert(1))');
    expect(out).toContain('b⟨0⟩⟨2⟩ (ftp://x.io)');
  });
});

describe('nothing from the service becomes a control character', () => {
  const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
  const hostile = [
    'CR by entity: over&#13;write, ESC by entity: &#27;[2J, C1: &#x9b;31m, FF: &#12;',
    '[click](https://evil.io/\u001b]8;;https://x\u0007) and <https://a.io/\u001b[2J>',
    '```\u001b[31m\ncode \u0007 bell\n```',
    '| a\u001b[2J | b |\n|---|---|\n| \u009b | &#13; |',
  ];

  it.each(hostile)('%j', (text) => {
    // what the service sent is made safe first (as the CLI does), then rendered: no control but our own
    for (const o of [{}, { colour: true, hyperlinks: true }]) {
      const out = renderWhole(terminalSafe(text), 60, o)
        .replace(/\x1b\[[0-9;]*m/g, '')
        .replace(/\x1b\]8;;https?:\/\/[\x21-\x7e]*?\x1b\\/g, '')
        .replace(/\x1b\]8;;\x1b\\/g, '');
      expect(out).not.toMatch(CONTROL);
    }
  });

  it('entities the parser decodes to a control are shown, not obeyed', () => {
    expect(plain('a&#13;b&#12;c')).toBe('a^Mb^Lc\n');
  });
});

describe('blocks', () => {
  it('headings keep their # marks (dim), so NO_COLOR still tells them apart', () => {
    expect(plain('# One\n## Two')).toBe('# One\n## Two\n');
    expect(colour('# One\n### Three')).toBe('⟨2⟩# ⟨0⟩⟨1;4;35⟩One⟨0⟩\n⟨2⟩### ⟨0⟩⟨1⟩Three⟨0⟩\n');
  });

  it('list items: a bullet per level, numbers kept, text wrapped under its first word, tasks as boxes', () => {
    expect(
      plain(
        '- alpha beta gamma delta\n  - one\n    - two\n      - three\n9. nine\n10. ten\n- [ ] todo\n- [x] done',
        16,
      ),
    ).toBe(
      [
        '• alpha beta',
        '  gamma delta',
        '  ◦ one',
        '    ▪ two',
        '      • three',
        '9. nine',
        '10. ten',
        '☐ todo',
        '☑ done',
        '',
      ].join('\n'),
    );
  });

  it('deep nesting never leaves the text less than 20 columns', () => {
    const deep = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n');
    for (const line of plain(deep, 40).trimEnd().split('\n')) expect(line.trimStart().length).toBeGreaterThan(0);
    expect(plain(deep, 40).trimEnd().split('\n').pop()).toBe(`${' '.repeat(20)}• level 39`);
  });

  it('quotes behind a bar per level, their text rendered and wrapped inside', () => {
    expect(plain('> **Risk** first, returns second.\n>\n> > - nested', 20)).toBe(
      ['│ Risk first,', '│ returns second.', '│', '│ │ • nested', ''].join('\n'),
    );
  });

  it('code: fences dim, tabs as spaces, an unknown language uncoloured, long lines left to the terminal', () => {
    expect(plain('```go\nfunc\tmain() {}\n```')).toBe('```go\nfunc    main() {}\n```\n');
    expect(colour('```brainfuck\n+++.\n```')).toBe('⟨2⟩```brainfuck⟨0⟩\n+++.\n⟨2⟩```⟨0⟩\n');
    const long = `x = "${'a'.repeat(100)}"`;
    expect(plain(`\`\`\`python\n${long}\n\`\`\``, 40)).toBe(`\`\`\`python\n${long}\n\`\`\`\n`);
  });

  it('a string or comment spanning lines keeps its colour on each of them', () => {
    const out = colour('```python\ns = """first\nsecond\n"""\n```', 40);
    expect(out).toContain('⟨32⟩second⟨0⟩');
  });

  it('a rule as wide as the terminal', () => {
    expect(plain('---', 12)).toBe('────────────\n');
  });
});

describe('tables', () => {
  const table =
    '| Sym | Price | Comment |\n|:--|--:|:-:|\n| BTC | $94,175.12 | ' +
    'strong bid under the range low |\n| ETH | $3,357 | — |';

  it('columns as wide as their widest cell, aligned as the delimiter row says', () => {
    expect(plain(table, 80)).toBe(
      [
        'Sym │      Price │            Comment',
        '────┼────────────┼───────────────────────────────',
        'BTC │ $94,175.12 │ strong bid under the range low',
        'ETH │     $3,357 │               —',
        '',
      ].join('\n'),
    );
  });

  it('narrower than the table: the text column wraps on words, figures are never cut', () => {
    const out = plain(table, 36).trimEnd().split('\n');
    expect(out.every((l) => [...l].length <= 36)).toBe(true);
    expect(out[2]).toContain('$94,175.12');
    expect(out.length).toBeGreaterThan(4);
  });

  it('too many columns for the width: each row as "Header: value" lines', () => {
    expect(plain('| a | b | c | d |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |', 12)).toBe('a: 1\nb: 2\nc: 3\nd: 4\n');
  });

  it('fitColumns: floors first, then what is left to the columns that want it, each its share', () => {
    expect(fitColumns([1, 5], [1, 9], 10)).toEqual([1, 9]);
    expect(fitColumns([2, 2, 2], [2, 30, 30], 20)).toEqual([2, 9, 9]);
    expect(fitColumns([10, 10], [20, 20], 15)).toBeUndefined();
  });
});

describe('hyperlinks: which terminals have them (from the environment the CLI was given)', () => {
  it.each([
    [{}, false],
    [{ FORCE_HYPERLINK: '1' }, true],
    [{ FORCE_HYPERLINK: '0', TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' }, false],
    [{ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' }, true],
    [{ TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.9' }, false],
    [{ TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.95.1' }, true],
    [{ TERM_PROGRAM: 'tmux', TERM: 'screen-256color' }, false],
    // the outer terminal's variables seen inside tmux or screen: the multiplexer drops the links
    [{ VTE_VERSION: '7006', TMUX: '/tmp/tmux-0/default,1,0', TERM: 'tmux-256color' }, false],
    [{ WT_SESSION: 'x', TMUX: '/tmp/tmux-0/default,1,0' }, false],
    [{ VTE_VERSION: '7600', STY: '1.pts-0.host' }, false],
    [{ WT_SESSION: 'x', TERM: 'screen-256color' }, false],
    [{ FORCE_HYPERLINK: '1', TMUX: '/tmp/tmux-0/default,1,0' }, true],
    [{ VTE_VERSION: '7600' }, true],
    [{ TERM: 'xterm-kitty' }, true],
    [{ WT_SESSION: 'x' }, true],
    [{ TERM: 'xterm-kitty', CI: 'true' }, false],
  ])('%j → %s', (env, expected) => {
    expect(hyperlinksSupported(env)).toBe(expected);
  });
});

describe(
  'the width of one code point (as string-width counts a lone ' +
    'one, but as terminals draw format and filler characters)',
  () => {
    it.each([
      ['a', 1],
      ['東', 2],
      ['ｱ', 1],
      ['\u0301', 0],
      ['\u200d', 0],
      ['\ufe0f', 0],
      ['😀', 2],
      ['€', 1],
      ['é', 1],
      ['한', 2],
      // drawn by terminals although string-width counts them 0 (a
      // stale row was left where the tail was measured narrower)
      ['\u00ad', 1],
      ['\u0600', 1],
      ['\u3164', 2],
      ['\u115f', 2],
      ['\ud83d', 1],
    ])('%j: %i', (ch, width) => {
      expect(codePointWidth(ch)).toBe(width);
    });
  },
);

describe('text without inline Markdown skips the parser', () => {
  it('and is laid out as the parser would have it', async () => {
    const fc = (await import('fast-check')).default;
    const { md: parser } = await import('../helpers/markdown.js');
    const { inlineSpans } = await import('../../src/ui/markdown/inline.js');
    // what markdown-it makes of it, read from its tokens without the shortcut
    const parsed = (text: string) =>
      (parser.parseInline(text, {})[0]?.children ?? []).map((t) => ({
        text: t.type === 'softbreak' || t.type === 'hardbreak' ? '\n' : t.content,
      }));
    const plainChars = fc.constantFrom(...'ab c\t  .,;:()$%#=+-/|?\'"0129é東'.split(''));
    // a block's text as the splitter hands it over: lines that do not start with white space, none blank
    const line = fc
      .array(plainChars, { minLength: 1, maxLength: 30 })
      .map((c) => c.join('').trimStart())
      .filter((l) => l.trim() !== '');
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 4 }), fc.integer({ min: 5, max: 40 }), (lines, width) => {
        const text = lines.join('\n');
        expect(texts(wrap(inlineSpans(parser, text, { hyperlinks: false, colour: false }), width))).toEqual(
          texts(wrap(parsed(text), width)),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('no rendered line of prose is wider than the terminal', () => {
  const widest = (text: string) =>
    Math.max(...text.split('\n').map((l) => textWidth(l.replace(/\x1b\[[0-9;]*m/g, ''))));
  it.each([
    ['eight quotes deep at 30 columns', '> > > > > > > > deep quote with words that go on and on\n', 30],
    [
      'a quote in a list 24 deep at 80 columns',
      '- '.repeat(24) +
        'x\n' +
        ' '.repeat(48) +
        '> > > > > > > > quoted text that is long enough to need wrapping here\n',
      80,
    ],
    ['a quote at 10 columns', '> > > a few words here\n', 10],
  ])('%s', (_name, text, width) => {
    const out = renderWhole(text, width);
    expect(widest(out), out).toBeLessThanOrEqual(width);
    expect(out).toContain('│');
  });
});
