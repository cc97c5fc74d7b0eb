// Cutting a text or a byte stream into pieces at given offsets (any order, repeats and offsets past
// the end allowed): how property tests try every way a stream may arrive.
export function cutAt<T extends string | Uint8Array>(value: T, at: number[]): T[] {
  const points = [...new Set(at.map((n) => n % (value.length + 1)))].sort((a, b) => a - b);
  const pieces: T[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(value.slice(from, p) as T);
    from = p;
  }
  pieces.push(value.slice(from) as T);
  return pieces;
}
