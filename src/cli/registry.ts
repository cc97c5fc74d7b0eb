// Every command by name, with what help needs to show it: metadata only, so that `--help` and
// `--version` load nothing else (src/cli/main.ts). The modules are found by src/cli/load-command.ts.

export type Group = 'agents' | 'chat' | 'configuration' | 'service';

export interface Entry {
  /** the words that name it: ['launch'], ['soul', 'show'] */
  path: string[];
  aliases?: string[];
  summary: string;
  group: Group;
  /** left out of help, the overview, suggestions and completion (the shell scripts' own helper) */
  hidden?: boolean;
}

export const GROUP_TITLES: Record<Group, string> = {
  agents: 'Agents',
  chat: 'Chat',
  configuration: 'Configuration',
  service: 'Service',
};

export const ENTRIES: Entry[] = [
  { path: ['launch'], summary: 'Launch a new SuperAgent', group: 'agents' },
  { path: ['list'], aliases: ['ls'], summary: 'List your agents', group: 'agents' },
  { path: ['get'], summary: "Show one agent's details", group: 'agents' },
  { path: ['pause'], summary: 'Pause agents (pause --all is the kill switch)', group: 'agents' },
  { path: ['resume'], summary: 'Resume paused agents', group: 'agents' },
  { path: ['restart'], summary: 'Restart agents in a fresh container', group: 'agents' },
  { path: ['destroy'], summary: 'Destroy an agent for good', group: 'agents' },
  { path: ['update'], summary: "Change an agent's name or description", group: 'agents' },
  { path: ['model'], summary: "Show or change an agent's model", group: 'agents' },
  { path: ['memory'], summary: "Show an agent's memory.md", group: 'agents' },
  { path: ['skills'], summary: "List an agent's skills", group: 'agents' },
  { path: ['skills', 'enable'], summary: 'Enable skills on an agent', group: 'agents' },
  { path: ['skills', 'disable'], summary: 'Disable skills on an agent', group: 'agents' },
  { path: ['wallet'], summary: "Show an agent's EVM and Solana addresses", group: 'agents' },
  { path: ['health'], summary: "Check an agent's health (exit 8 when unhealthy)", group: 'agents' },
  { path: ['soul', 'show'], summary: "Print an agent's soul.md", group: 'agents' },
  { path: ['soul', 'edit'], summary: "Edit an agent's soul.md in $VISUAL or $EDITOR", group: 'agents' },
  { path: ['soul', 'set'], summary: "Replace an agent's soul.md from a file or stdin", group: 'agents' },
  { path: ['chat'], summary: 'Talk to an agent: one message, or the interactive REPL', group: 'chat' },
  { path: ['assistant'], summary: 'The market-intelligence assistant REPL (on a terminal)', group: 'chat' },
  { path: ['assistant', 'ask'], summary: 'Ask the market-intelligence assistant one question', group: 'chat' },
  { path: ['classic', 'list'], summary: 'List classic agents', group: 'agents' },
  { path: ['classic', 'get'], summary: 'Show a classic agent', group: 'agents' },
  { path: ['classic', 'update'], summary: 'Update a classic agent', group: 'agents' },
  { path: ['login'], summary: 'Store an API key for a service, checked first', group: 'configuration' },
  { path: ['logout'], summary: "Forget the active profile's key", group: 'configuration' },
  { path: ['whoami'], summary: 'Show the profile, base URL, masked key and whether it works', group: 'configuration' },
  { path: ['config', 'list'], summary: 'Show every profile and setting', group: 'configuration' },
  { path: ['config', 'get'], summary: 'Print one setting', group: 'configuration' },
  { path: ['config', 'set'], summary: 'Change one setting', group: 'configuration' },
  { path: ['config', 'unset'], summary: 'Remove one setting', group: 'configuration' },
  { path: ['config', 'path'], summary: 'Print where the config file lives', group: 'configuration' },
  { path: ['completion'], summary: 'Print the shell completion script (bash, zsh or fish)', group: 'configuration' },
  { path: ['server'], summary: 'Run the embedded SuperAgents service in the foreground', group: 'service' },
  { path: ['__complete'], summary: 'Print completion candidates for the shell scripts (agent names and ids, skills)', group: 'configuration', hidden: true },
];

/** The commands a person sees: everything but the hidden helpers. */
export const VISIBLE_ENTRIES: Entry[] = ENTRIES.filter((e) => !e.hidden);

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
  return VISIBLE_ENTRIES.filter((e) => e.path[0] === word);
}
