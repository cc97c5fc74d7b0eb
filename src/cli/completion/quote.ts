// Quoting words into the generated scripts.

/** A single-quoted word for bash and zsh. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A single-quoted word for fish (which escapes \ and ' inside single quotes). */
export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A description on one line, without tabs (the scripts use a tab between a value and its description). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
