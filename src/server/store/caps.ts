// What the store keeps, and for how long: nothing in it grows without bound.

/** Turns of history kept per session (user and agent lines): replies depend on recent history only. */
export const HISTORY_KEPT = 20;

/** [ours] sessions kept per account; the oldest are dropped (a continued one is then 404 `Session not found`) */
export const SESSIONS_KEPT = 200;

/** [ours] memory.md is kept under this many UTF-8 bytes: its newest lines stay */
export const MEMORY_MAX_BYTES = 64 * 1024;

/** [ours] a destroyed agent's record is purged this long after its destruction (it is 404 either way) */
export const DESTROYED_GRACE_MS = 24 * 60 * 60 * 1000;

/** The line that says, at the top of memory.md, that older entries were dropped. */
export const MEMORY_TRIMMED_NOTE = '> Older entries were trimmed: this file keeps its newest 64 KiB.';

/** An event of memory.md on the day `ms` falls on: `YYYY-MM-DD: event`. */
export function dated(ms: number, event: string): string {
  return `${new Date(ms).toISOString().slice(0, 10)}: ${event}`;
}

/** Adds a `- line` entry to memory.md, trimmed to `maxBytes` (capMemory). */
export function appendMemory(memory: string, line: string, maxBytes = MEMORY_MAX_BYTES): string {
  return capMemory(`${memory}${memory === '' || memory.endsWith('\n') ? '' : '\n'}- ${line}\n`, maxBytes);
}

/**
 * memory.md within `maxBytes`: its title (a first line starting with `#`), the trimmed note, then as
 * many of the newest lines as fit. Unchanged when it fits already.
 */
export function capMemory(memory: string, maxBytes = MEMORY_MAX_BYTES): string {
  if (Buffer.byteLength(memory, 'utf8') <= maxBytes) return memory;
  const lines = memory.split('\n');
  const title = lines[0]?.startsWith('#') ? lines.shift()! : undefined;
  const head = `${title === undefined ? '' : `${title}\n\n`}${MEMORY_TRIMMED_NOTE}\n`;
  let budget = maxBytes - Buffer.byteLength(head, 'utf8');
  const kept: string[] = [];
  // from the newest back; the last element is the '' after the final newline
  const body = lines.filter((l) => l !== MEMORY_TRIMMED_NOTE);
  if (body.at(-1) === '') body.pop();
  for (let i = body.length - 1; i >= 0; i--) {
    const line = body[i]!;
    const cost = Buffer.byteLength(line, 'utf8') + 1;
    if (cost > budget) break;
    budget -= cost;
    kept.push(line);
  }
  while (kept.length > 0 && kept.at(-1)!.trim() === '') kept.pop(); // no blank lines right under the note
  return (
    head +
    kept
      .reverse()
      .map((l) => `${l}\n`)
      .join('')
  );
}
