// A value shown inside a command the user may copy (`superagent
// chat 'my agent'`), quoted for a POSIX shell when needed.

export function shellWord(value: string): string {
  if (/^[\w.@%+=:,/-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
