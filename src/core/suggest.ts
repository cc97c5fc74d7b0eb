// "Did you mean …?" for every typo the tool can catch: commands, options, REPL commands, skills, agents.

/** Edit distance (insertions, deletions, substitutions, and swaps of two neighbours). */
export function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `word`, if it is close enough to be what was meant: within a third of
 * its length (at least 1, at most 3 edits), or one that starts with it.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  if (w === '' || w.length > 64) return undefined;
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const n = name.toLowerCase();
    if (n === w) return name;
    const d = n.startsWith(w) && w.length >= 2 ? 0.5 : distance(w, n);
    if (!best || d < best.d) best = { name, d };
  }
  if (!best) return undefined;
  const allowed = Math.min(3, Math.max(1, Math.floor(w.length / 3)));
  return best.d <= allowed ? best.name : undefined;
}

/** `did you mean 'x'?`, or undefined when nothing is close. */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  quote = (s: string) => `'${s}'`,
): string | undefined {
  const match = closest(word, candidates);
  return match === undefined ? undefined : `did you mean ${quote(match)}?`;
}
