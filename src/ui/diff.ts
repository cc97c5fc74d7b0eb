// A line-based unified diff (the `diff -u` format) for showing what an edit changes: jsdiff's hunks,
// as lines with a kind each, so the one printer of diffs (renderDiff) can colour and mask them.
import type { ChalkInstance } from 'chalk';
import { maskSecrets } from './mask.js';

export type LineKind = 'header' | 'hunk' | 'context' | 'remove' | 'add' | 'note';

export interface DiffLine {
  kind: LineKind;
  text: string;
}

/** The lines of `text`, each keeping its '\n', so a missing final newline is a difference too. */
export function splitLines(text: string): string[] {
  const lines = text.split('\n').map((l) => l + '\n');
  const last = lines.pop()!.slice(0, -1);
  if (last !== '') lines.push(last);
  return lines;
}

/** `start,count` as diff -u writes it: an empty range names the line before it, a count of 1 is left out. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

const KIND: Record<string, LineKind> = { ' ': 'context', '-': 'remove', '+': 'add', '\\': 'note' };

/** The unified diff of two texts as lines; empty when they are equal. */
export async function unifiedDiff(
  oldText: string,
  newText: string,
  labels: { old: string; new: string },
  context = 3,
): Promise<DiffLine[]> {
  if (oldText === newText) return [];
  const { structuredPatch } = await import('../vendor/diff.js');
  const patch = structuredPatch(labels.old, labels.new, oldText, newText, undefined, undefined, { context });
  const out: DiffLine[] = [
    { kind: 'header', text: `--- ${labels.old}` },
    { kind: 'header', text: `+++ ${labels.new}` },
  ];
  for (const h of patch.hunks) {
    out.push({ kind: 'hunk', text: `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@` });
    for (const line of h.lines) out.push({ kind: KIND[line[0]!]!, text: line });
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
