// The unified diff of src/ui/diff.ts: hunks as GNU `diff -u` writes them, and a diff that always
// patches the old text into the new one.
import fc from 'fast-check';
import { Chalk } from 'chalk';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderDiff, splitLines, unifiedDiff, type DiffLine } from '../../src/ui/diff.js';

const LABELS = { old: 'a/soul.md', new: 'b/soul.md' };
const body = async (oldText: string, newText: string) =>
  (await unifiedDiff(oldText, newText, LABELS)).slice(2).map((l) => l.text);
const lines = (...ls: string[]) => ls.map((l) => `${l}\n`).join('');

/** Applies a unified diff's hunks to `oldText` (a test-only patch), refusing any context that does not match. */
function patch(oldText: string, diff: DiffLine[]): string {
  const old = splitLines(oldText);
  const out: string[] = [];
  let at = 0; // index into old
  for (let k = 2; k < diff.length; k++) {
    const d = diff[k]!;
    if (d.kind === 'hunk') {
      const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(d.text)!;
      const count = m[2] === undefined ? 1 : Number(m[2]);
      const start = count === 0 ? Number(m[1]) : Number(m[1]) - 1;
      while (at < start) out.push(old[at++]!);
      continue;
    }
    if (d.kind === 'note') {
      // the line before has no newline
      const last = out.length - 1;
      if (diff[k - 1]!.kind === 'remove') continue;
      out[last] = out[last]!.slice(0, -1);
      continue;
    }
    const text = d.text.slice(1) + '\n';
    if (d.kind === 'context' || d.kind === 'remove') {
      const noNewline = diff[k + 1]?.kind === 'note';
      expect(old[at]).toBe(noNewline ? text.slice(0, -1) : text);
      at++;
    }
    if (d.kind === 'context' || d.kind === 'add') out.push(text);
  }
  while (at < old.length) out.push(old[at++]!);
  return out.join('');
}

describe('splitLines', () => {
  it('keeps each newline, and a last line without one as it is', async () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb\n')).toEqual(['a\n', 'b\n']);
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
    expect(splitLines('\n\n')).toEqual(['\n', '\n']);
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts', async () => {
    expect(await unifiedDiff('same\n', 'same\n', LABELS)).toEqual([]);
    expect(await unifiedDiff('', '', LABELS)).toEqual([]);
  });

  it('starts with the two labels', async () => {
    expect((await unifiedDiff('a\n', 'b\n', LABELS)).slice(0, 2)).toEqual([
      { kind: 'header', text: '--- a/soul.md' },
      { kind: 'header', text: '+++ b/soul.md' },
    ]);
  });

  it('writes the hunks of diff -u: 3 lines of context, far changes in hunks of their own', async () => {
    const a = lines(...'abcdefghijklm');
    const b = lines('a', 'B', ...'cdefghijklm', 'n');
    expect(await body(a, b)).toEqual([
      '@@ -1,5 +1,5 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      ' d',
      ' e',
      '@@ -11,3 +11,4 @@',
      ' k',
      ' l',
      ' m',
      '+n',
    ]);
  });

  it('joins changes whose gap fits in the context', async () => {
    const a = lines(...'12345678');
    const b = lines('1', 'X', '3', '4', '5', '6', '7', 'Y');
    expect(await body(a, b)).toEqual(['@@ -1,8 +1,8 @@', ' 1', '-2', '+X', ' 3', ' 4', ' 5', ' 6', ' 7', '-8', '+Y']);
  });

  it('splits changes 7 unchanged lines apart into two hunks', async () => {
    const a = lines('1', '2', '3', '4', '5', '6', '7', '8', '9', '10');
    const b = lines('1', 'X', '3', '4', '5', '6', '7', '8', '9', 'Y');
    expect(await body(a, b)).toEqual([
      '@@ -1,5 +1,5 @@',
      ' 1',
      '-2',
      '+X',
      ' 3',
      ' 4',
      ' 5',
      '@@ -7,4 +7,4 @@',
      ' 7',
      ' 8',
      ' 9',
      '-10',
      '+Y',
    ]);
  });

  it('an insertion in the middle', async () => {
    expect(await body(lines(...'12345678'), lines('1', '2', '3', '4', 'X', '5', '6', '7', '8'))).toEqual([
      '@@ -2,6 +2,7 @@',
      ' 2',
      ' 3',
      ' 4',
      '+X',
      ' 5',
      ' 6',
      ' 7',
    ]);
  });

  it('marks a missing final newline', async () => {
    expect(await body('x\ny', 'x\ny\n')).toEqual(['@@ -1,2 +1,2 @@', ' x', '-y', '\\ No newline at end of file', '+y']);
  });

  it('empty ranges name the line before', async () => {
    expect(await body('', 'one\n')).toEqual(['@@ -0,0 +1 @@', '+one']);
    expect(await body('one\ntwo\n', '')).toEqual(['@@ -1,2 +0,0 @@', '-one', '-two']);
  });

  it('keeps UTF-8 text as it is', async () => {
    expect(await body('Héllo ✓\n', 'Héllo ✗ 日本\n')).toEqual(['@@ -1 +1 @@', '-Héllo ✓', '+Héllo ✗ 日本']);
  });

  it('keeps the longest common subsequence, not just head and tail', async () => {
    const diff = await body(lines('a', 'x', 'b', 'y', 'c'), lines('a', 'b', 'z', 'c'));
    expect(diff.filter((l) => l.startsWith(' '))).toEqual([' a', ' b', ' c']);
  });

  it('patches the old text into the new one, whatever the texts', async () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', '', 'ü'), { maxLength: 30 })
      .chain((ls) => fc.boolean().map((newline) => ls.join('\n') + (newline && ls.length ? '\n' : '')));
    await fc.assert(
      fc.asyncProperty(text, text, async (a, b) => {
        const diff = await unifiedDiff(a, b, LABELS);
        expect(diff.length === 0).toBe(a === b);
        if (diff.length) expect(patch(a, diff)).toBe(b);
      }),
      { numRuns: 500 },
    );
  });

  it('large wholly different texts still give a correct diff', async () => {
    const a = Array.from({ length: 2100 }, (_, i) => `old ${i}\n`).join('');
    const b = Array.from({ length: 2100 }, (_, i) => `new ${i}\n`).join('');
    const diff = await unifiedDiff(a, b, LABELS);
    expect(diff[2]!.text).toBe('@@ -1,2100 +1,2100 @@');
    expect(patch(a, diff)).toBe(b);
  });
});

describe('renderDiff', () => {
  let diff: DiffLine[];
  beforeAll(async () => {
    diff = await unifiedDiff('a\nb\n', 'a\nc\n', LABELS);
  });

  it('is the plain text of diff -u with no colour', async () => {
    const plain = new Chalk({ level: 0 });
    expect(renderDiff(diff, plain)).toBe('--- a/soul.md\n+++ b/soul.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
  });

  it(
    'never shows a key or a bot token whole on any line ' + '(the diff keeps them: the printed text is masked)',
    async () => {
      const key = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
      const token = '7123456789:' + 'AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
      const [before, after] = [`key ${key}\nsame ${key}\n`, `token ${token}\nsame ${key}\n`];
      const withSecrets = await unifiedDiff(before, after, { old: `old ${key}`, new: 'b' });
      const out = renderDiff(withSecrets, new Chalk({ level: 0 }));
      const masked = ['--- old sa_sk_…t0Uv', '+++ b', '@@ -1,2 +1,2 @@', '-key sa_sk_…t0Uv', '+token 7123456789:…'];
      masked.push(' same sa_sk_…t0Uv');
      expect(out).toBe(masked.map((l) => `${l}\n`).join(''));
      expect(withSecrets.map((l) => l.text)).toContain(`-key ${key}`);
    },
  );

  it('colours removals red, additions green, hunk lines cyan', async () => {
    const out = renderDiff(diff, new Chalk({ level: 1 }));
    expect(out).toContain('\u001b[31m-b\u001b[39m\n');
    expect(out).toContain('\u001b[32m+c\u001b[39m\n');
    expect(out).toContain('\u001b[36m@@ -1,2 +1,2 @@\u001b[39m\n');
    expect(out).toContain('\u001b[1m--- a/soul.md\u001b[22m\n');
  });
});
