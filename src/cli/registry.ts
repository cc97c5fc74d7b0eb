// Every command by name, with what help needs to show it. Modules load only when their command runs,
// so `--help`, `--version` and one-request commands stay fast.
import type { CommandModule } from './spec.js';

export type Group = 'agents' | 'chat' | 'configuration' | 'service';

export interface Entry {
  /** the words that name it: ['launch'], ['soul', 'show'] */
  path: string[];
  aliases?: string[];
  summary: string;
  group: Group;
  load: () => Promise<CommandModule>;
}

export const GROUP_TITLES: Record<Group, string> = {
  agents: 'Agents',
  chat: 'Chat',
  configuration: 'Configuration',
  service: 'Service',
};

export const ENTRIES: Entry[] = [
  {
    path: ['server'],
    summary: 'Run the embedded SuperAgents service in the foreground',
    group: 'service',
    load: () => import('./commands/server.js'),
  },
];

/**
 * The entry that argv names, from its first words (options and their values already skipped by the caller).
 * A group word alone ('skills') resolves to the entry whose path is just that word, if any.
 */
export function resolveEntry(words: string[]): { entry: Entry; consumed: number } | null {
  let best: { entry: Entry; consumed: number } | null = null;
  for (const entry of ENTRIES) {
    const names = [entry.path[0]!, ...(entry.path.length === 1 ? entry.aliases ?? [] : [])];
    if (!names.includes(words[0] ?? '')) continue;
    const rest = entry.path.slice(1);
    if (rest.every((w, i) => words[i + 1] === w) && (!best || entry.path.length > best.consumed)) {
      best = { entry, consumed: entry.path.length };
    }
  }
  return best;
}

/** Commands whose first word is `word` (for a group's help). */
export function entriesUnder(word: string): Entry[] {
  return ENTRIES.filter((e) => e.path[0] === word);
}
