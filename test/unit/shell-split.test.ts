// shellSplit: $EDITOR split into words as a POSIX shell splits them, checked against /bin/sh itself.
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShellSplitError, shellSplit } from '../../src/ui/shell-split.js';
import { shellWord } from '../../src/ui/shell-word.js';

/** How /bin/sh splits `line` (no expansions are used in these lines, so only quoting matters). */
function shSplit(line: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

describe('shellSplit', () => {
  it.each([
    ['vi', ['vi']],
    ['code --wait', ['code', '--wait']],
    ["vim -c 'set tw=80'", ['vim', '-c', 'set tw=80']],
    ['  nano   -w\t', ['nano', '-w']],
    ['"/opt/my editor/bin/ed" --flag', ['/opt/my editor/bin/ed', '--flag']],
    ['my\\ editor -x', ['my editor', '-x']],
    ['a\'b\'"c"d', ['abcd']],
    ["ed '' x", ['ed', '', 'x']],
    ['ed ""', ['ed', '']],
    ['"say \\"hi\\" \\\\ \\$HOME \\n"', ['say "hi" \\ $HOME \\n']],
    ["'it'\\''s'", ["it's"]],
    ['emacs -nw; rm -rf x', ['emacs', '-nw;', 'rm', '-rf', 'x']],
    ['ed a\\\nb', ['ed', 'ab']],
    ['', []],
    ['   ', []],
  ])('%j', (line, words) => {
    expect(shellSplit(line)).toEqual(words);
  });

  it.each([
    ["vim -c 'set tw=80", 'unterminated single quote'],
    ['code "--wait', 'unterminated double quote'],
    ['ed \\', 'a backslash at the end escapes nothing'],
  ])('refuses %j', (line, message) => {
    expect(() => shellSplit(line)).toThrow(new ShellSplitError(message));
  });

  it('agrees with /bin/sh on quoting', () => {
    const lines = [
      'vim -c \'set tw=80\' -c "set ft=markdown"',
      'a\\ b "c d" \'e f\' g',
      'x"y"\'z\' "" \'\'',
      '"back\\\\slash" \'back\\slash\' back\\\\slash',
      '"in \\"double\\" quotes" \\"bare\\"',
      '\'single " inside\' "double \' inside"',
      'tab\there',
    ];
    for (const line of lines) expect(shellSplit(line), line).toEqual(shSplit(line));
  });

  it('gives back any words that shellWord quoted', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 1, maxLength: 6 }), (words) => {
        expect(shellSplit(words.map(shellWord).join(' '))).toEqual(words);
      }),
    );
  });
});
