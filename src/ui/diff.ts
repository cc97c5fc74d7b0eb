// A line-based unified diff (the `diff -u` format) for showing what an edit changes. The `diff`
// package is not installed, so this is a small longest-common-subsequence diff: common head and tail
// are trimmed first, so a typical edit of a large file costs little; two large, wholly different
// middles fall back to "remove all, add all", still a correct diff, only not a minimal one.
import type { ChalkInstance } from 'chalk';
import { maskSecrets } from './mask.js';

export type LineKind = 'header' | 'hunk' | 'context' | 'remove' | 'add' | 'note';

export interface DiffLine {
  kind: LineKind;
  text: string;
}

interface Op {
  kind: ' ' | '-' | '+';
  /** the line with its '\n', or without one when it ends the text without a newline */
  line: string;
}

/** above this many cells (old × new lines left after trimming) the LCS table is not built */
const MAX_CELLS = 4_000_000;

/** The lines of `text`, each keeping its '\n', so a missing final newline is a difference too. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n').map((l) => l + '\n');
  const last = lines.pop()!.slice(0, -1);
  if (last !== '') lines.push(last);
  return lines;
}

/** The edit script from `a` to `b`: kept lines, and removals before additions in each changed block. */
export function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const ops: Op[] = a.slice(0, head).map((line): Op => ({ kind: ' ', line }));
  ops.push(...middle(x, y));
  ops.push(...a.slice(a.length - tail).map((line): Op => ({ kind: ' ', line })));
  return ops;
}

function middle(x: string[], y: string[]): Op[] {
  const n = x.length;
  const m = y.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    return [...x.map((line): Op => ({ kind: '-', line })), ...y.map((line): Op => ({ kind: '+', line }))];
  }
  // lcs[i * w + j]: length of the longest common subsequence of x[i..] and y[j..]
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      ops.push({ kind: ' ', line: x[i++]! });
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) {
      ops.push({ kind: '-', line: x[i++]! });
    } else {
      ops.push({ kind: '+', line: y[j++]! });
    }
  }
  while (i < n) ops.push({ kind: '-', line: x[i++]! });
  while (j < m) ops.push({ kind: '+', line: y[j++]! });
  return ops;
}

/** `start,count` as diff -u writes it: an empty range names the line before it, a count of 1 is left out. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

const KIND: Record<Op['kind'], LineKind> = { ' ': 'context', '-': 'remove', '+': 'add' };

/** The unified diff of two texts as lines; empty when they are equal. */
export function unifiedDiff(oldText: string, newText: string, labels: { old: string; new: string }, context = 3): DiffLine[] {
  const ops = diffLines(splitLines(oldText), splitLines(newText));
  const changed = ops.flatMap((op, k) => (op.kind === ' ' ? [] : [k]));
  if (changed.length === 0) return [];

  // the old and new line numbers (1-based) at which each op stands
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let nw = 1;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(nw);
    if (op.kind !== '+') o++;
    if (op.kind !== '-') nw++;
  }

  const out: DiffLine[] = [
    { kind: 'header', text: `--- ${labels.old}` },
    { kind: 'header', text: `+++ ${labels.new}` },
  ];
  let g = 0;
  while (g < changed.length) {
    // join changes whose unchanged gap fits in the context of both
    let last = g;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! - 1 <= 2 * context) last++;
    const from = Math.max(0, changed[g]! - context);
    const to = Math.min(ops.length - 1, changed[last]! + context);
    const hunk = ops.slice(from, to + 1);
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    out.push({ kind: 'hunk', text: `@@ -${range(oldAt[from]!, oldCount)} +${range(newAt[from]!, newCount)} @@` });
    for (const op of hunk) {
      const ends = op.line.endsWith('\n');
      out.push({ kind: KIND[op.kind], text: op.kind + (ends ? op.line.slice(0, -1) : op.line) });
      if (!ends) out.push({ kind: 'note', text: '\\ No newline at end of file' });
    }
    g = last + 1;
  }
  return out;
}

/**
 * The diff as text, coloured by `colour` (pass a plain styler for none): the one place a diff becomes
 * printed text, so every diff shows a key or a bot token in it masked (a soul may quote one, and a
 * plan runs in CI logs); the texts diffed, and what is uploaded, keep them whole.
 */
export function renderDiff(lines: DiffLine[], colour: ChalkInstance): string {
  const paint: Record<LineKind, (s: string) => string> = {
    header: (s) => colour.bold(s),
    hunk: (s) => colour.cyan(s),
    context: (s) => s,
    remove: (s) => colour.red(s),
    add: (s) => colour.green(s),
    note: (s) => colour.dim(s),
  };
  return lines.map((l) => paint[l.kind](maskSecrets(l.text)) + '\n').join('');
}
