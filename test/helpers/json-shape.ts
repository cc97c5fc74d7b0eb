// Compares two JSON values by shape, not by value: the same keys, the same kinds of value (a decimal
// string is its own kind, so "1.5" and 1.5 differ, and so do "1.5" and "ETH"), recursively; a list's
// elements all have the first one's shape, or, for a list whose elements differ (a tuple such as
// ["day", {...}]), each has the shape of the element at its place. Used to hold the embedded service's
// simulation to the recorded public answers (test/fixtures/chains/). An object's keys are compared both
// ways: a key on one side only is a difference.

const DECIMAL = /^-?\d+(\.\d+)?$/;

type Kind = 'null' | 'boolean' | 'number' | 'decimal string' | 'string' | 'list' | 'object';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return DECIMAL.test(value) ? 'decimal string' : 'string';
  if (typeof value === 'number' || typeof value === 'boolean') return typeof value as Kind;
  return 'object';
}

export interface ShapeOptions {
  /** paths where null stands for any value, a list's elements written [] ("$.list[].price") */
  nullable?: readonly string[];
}

/** Where `actual` is shaped unlike `expected`, one line each ("$.a[0].b: …"); empty when alike. */
export function shapeDifferences(expected: unknown, actual: unknown, options: ShapeOptions = {}, at = '$'): string[] {
  const [ek, ak] = [kindOf(expected), kindOf(actual)];
  if (ek !== ak) {
    if ((ek === 'null' || ak === 'null') && options.nullable?.includes(at.replace(/\[\d+\]/g, '[]'))) return [];
    return [`${at}: a ${ak} where the recorded answer has a ${ek}`];
  }
  if (ek === 'object') {
    const [e, a] = [expected as Record<string, unknown>, actual as Record<string, unknown>];
    const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
    return keys.flatMap((k) => {
      if (!(k in a)) return [`${at}.${k}: missing`];
      if (!(k in e)) return [`${at}.${k}: not in the recorded answer`];
      return shapeDifferences(e[k], a[k], options, `${at}.${k}`);
    });
  }
  if (ek === 'list') {
    const [e, a] = [expected as unknown[], actual as unknown[]];
    const uniform = e.every((x) => shapeDifferences(e[0], x, options).length === 0);
    if (uniform) return a.flatMap((x, i) => (e.length ? shapeDifferences(e[0], x, options, `${at}[${i}]`) : []));
    if (e.length !== a.length) return [`${at}: ${a.length} elements where the recorded tuple has ${e.length}`];
    return a.flatMap((x, i) => shapeDifferences(e[i], x, options, `${at}[${i}]`));
  }
  return [];
}
