// Splits a command line such as $EDITOR (`code --wait`, `vim -c 'set tw=80'`) into words the way a
// POSIX shell would, without running a shell: quotes and backslashes are honoured, nothing is
// expanded ($VAR, ~, globs) and operators (; | &) are plain characters. No well-kept splitter
// (shell-quote, string-argv) is installed, so this is the small subset editors need.

export class ShellSplitError extends Error {}

const BLANK = /[ \t\n]/;
/** inside double quotes a backslash escapes only these (POSIX 2.2.3) */
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);

export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let word = '';
  // a word exists once anything, even an empty pair of quotes, has been read
  let inWord = false;
  let i = 0;
  const end = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  while (i < line.length) {
    const c = line[i]!;
    if (BLANK.test(c)) {
      end();
      i++;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new ShellSplitError('unterminated single quote');
      word += line.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= line.length) throw new ShellSplitError('unterminated double quote');
        const d = line[i]!;
        if (d === '"') break;
        if (d === '\\' && i + 1 < line.length && DOUBLE_QUOTE_ESCAPES.has(line[i + 1]!)) {
          // backslash-newline is a line continuation: both vanish
          if (line[i + 1] !== '\n') word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new ShellSplitError('a backslash at the end escapes nothing');
      if (line[i + 1] !== '\n') {
        word += line[i + 1];
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  end();
  return words;
}
