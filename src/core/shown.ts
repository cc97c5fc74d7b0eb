// A value the user gave, shown back in a message: a long one (a 100 KB argument) is cut, so that
// the message stays one readable line.

/** `value` as shown in a message: at most `max` characters, ending in `…` when cut. */
export function shownValue(value: string, max = 60): string {
  const chars = Array.from(value.slice(0, 2 * max));
  return chars.length <= max && value.length <= 2 * max ? value : `${chars.slice(0, max - 1).join('')}…`;
}
