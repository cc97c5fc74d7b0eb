// REPL history kept across runs: one file per key under `<data dir>/history/`, private (0600 in a
// 0700 directory) because people paste things into prompts, capped so it never grows without end.
import path from 'node:path';
import { privateDir, writeFileAtomic } from '../../core/atomic-write.js';
import { readRegularFile } from '../../core/regular-file.js';

/** How many lines a history file keeps (the newest). */
export const HISTORY_SIZE = 1000;

/** `<data dir>/history/<key>`, the key reduced to characters safe in a file name. */
export function historyPath(dataDir: string, key: string): string {
  return path.join(dataDir, 'history', key.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** The saved lines, newest first (readline's order); none when the file is missing, unreadable or not a file. */
export function loadHistory(file: string, size = HISTORY_SIZE): string[] {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .slice(-size)
    .reverse();
}

/** Writes `lines` (newest first) oldest first, at most `size` of them, atomically and privately. */
export function saveHistory(file: string, lines: readonly string[], size = HISTORY_SIZE): void {
  privateDir(path.dirname(file));
  const body = lines.slice(0, size).reverse().join('\n');
  writeFileAtomic(file, body === '' ? '' : body + '\n');
}
