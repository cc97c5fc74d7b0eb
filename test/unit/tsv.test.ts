// Piped rows are tab-separated, one line a record: a value from the service holding a tab, a line
// break, a CR, a backslash or another control character is escaped (\t, \n, \r, \\, \xHH, \uHHHH), so
// `cut -f2` and `while IFS=$'\t' read` still see the rows and columns the command meant.
import { describe, expect, it } from 'vitest';
import { cellSafe, tsvRow, tsvSafe } from '../../src/ui/format.js';

describe('tsvSafe', () => {
  it.each([
    ['a tab', 'a\tb', 'a\\tb'],
    ['a line break and a CR', 'a\nb\r\nc\rd', 'a\\nb\\r\\nc\\rd'],
    ['a backslash (so an escape read back is not ambiguous)', 'C:\\t\\x', 'C:\\\\t\\\\x'],
    ['C0, DEL and C1 controls', 'x\u0000\u001b[2J\u0007\u007f\u009b', 'x\\x00\\x1b[2J\\x07\\x7f\\x9b'],
    ['line separators and direction changes', 'a\u2028b\u2029c\u202ed\u2066', 'a\\u2028b\\u2029c\\u202ed\\u2066'],
    ['plain text, accents and emoji', 'Café 😀 ok', 'Café 😀 ok'],
  ])('%s', (_what, value, escaped) => {
    expect(tsvSafe(value)).toBe(escaped);
  });
});

describe('tsvRow', () => {
  it('joins the escaped values with tabs: as many columns as values, one line', () => {
    const row = tsvRow(['id-1', 'evil\tname\nid-2\tfake', '', 'x\\y']);
    expect(row).toBe('id-1\tevil\\tname\\nid-2\\tfake\t\tx\\\\y');
    expect(row.split('\t')).toHaveLength(4);
    expect(row).not.toMatch(/[\n\r]/);
  });
});

describe('cellSafe (a table on a terminal)', () => {
  it('shows a tab, a line break and every other control character, so a cell stays one cell of one row', () => {
    expect(cellSafe('a\tb\nc\r\n\u001b[2Jd')).toBe('a^Ib^Jc^J^[[2Jd');
  });
});
