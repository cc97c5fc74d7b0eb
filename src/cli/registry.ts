// Every command, once: the words that name it, its aliases, its group and one-line summary (what
// the overview shows without loading anything), and how to load it. The module's `spec` says the
// rest (arguments, options, examples), declared to commander when the command is chosen
// (program/build.ts); completion and docs/cli.md start here too.
import type { CommandModule } from './spec.js';

export type Group = 'agents' | 'chat' | 'fleet' | 'configuration' | 'service';

export interface Entry {
  /** the words that name it: ['launch'], ['soul', 'show'] */
  path: readonly string[];
  aliases?: readonly string[];
  summary: string;
  group: Group;
  /** left out of help, the overview, suggestions and completion (the shell scripts' helper, `version`) */
  hidden?: boolean;
  load(): Promise<CommandModule>;
}

export const GROUP_TITLES: Record<Group, string> = {
  agents: 'Agents',
  chat: 'Chat',
  fleet: 'Fleet as code',
  configuration: 'Configuration',
  service: 'Service',
};

// The loaders are typed loosely on purpose: each module's `run` takes the Input of its own spec.
type Loader = () => Promise<unknown>;
const entry = (
  path: string[],
  group: Group,
  summary: string,
  load: Loader,
  more: Partial<Pick<Entry, 'aliases' | 'hidden'>> = {},
): Entry => ({
  path,
  group,
  summary,
  load: load as Entry['load'],
  ...more,
});

export const ENTRIES: readonly Entry[] = [
  entry(['launch'], 'agents', 'Launch a new SuperAgent', () => import('./commands/launch.js')),
  entry(['list'], 'agents', 'List your agents', () => import('./commands/list.js'), { aliases: ['ls'] }),
  entry(['get'], 'agents', "Show one agent's details", () => import('./commands/get.js')),
  entry(['pause'], 'agents', 'Pause agents (pause --all is the kill switch)', () => import('./commands/pause.js')),
  entry(
    ['resume'],
    'agents',
    'Resume paused agents (resume --all undoes the kill switch)',
    () => import('./commands/resume.js'),
  ),
  entry(['restart'], 'agents', 'Restart agents in a fresh container', () => import('./commands/restart.js')),
  entry(['destroy'], 'agents', 'Destroy an agent for good', () => import('./commands/destroy.js')),
  entry(['update'], 'agents', "Change an agent's name or description", () => import('./commands/update.js')),
  entry(['model'], 'agents', "Show or change an agent's model", () => import('./commands/model.js')),
  entry(['memory'], 'agents', "Show an agent's memory.md", () => import('./commands/memory.js')),
  entry(['skills'], 'agents', "List an agent's skills", () => import('./commands/skills/list.js')),
  entry(['skills', 'enable'], 'agents', 'Enable skills on an agent', () => import('./commands/skills/enable.js')),
  entry(['skills', 'disable'], 'agents', 'Disable skills on an agent', () => import('./commands/skills/disable.js')),
  entry(
    ['wallet'],
    'agents',
    "Show an agent's wallet addresses and what they hold",
    () => import('./commands/wallet.js'),
  ),
  entry(['positions'], 'agents', "Show an agent's open positions and orders", () => import('./commands/positions.js')),
  entry(['pnl'], 'agents', "Show an agent's account value and PnL over time", () => import('./commands/pnl.js')),
  entry(
    ['guard'],
    'agents',
    'Pause agents past risk limits: once, or as a watchdog',
    () => import('./commands/guard.js'),
  ),
  entry(['top'], 'agents', 'Every agent live: status, health, value, 24-hour PnL', () => import('./commands/top.js')),
  entry(['health'], 'agents', "Check an agent's health (exit 8 when unhealthy)", () => import('./commands/health.js')),
  entry(['soul', 'show'], 'agents', "Print an agent's soul.md", () => import('./commands/soul/show.js')),
  entry(
    ['soul', 'edit'],
    'agents',
    "Edit an agent's soul.md in $VISUAL or $EDITOR",
    () => import('./commands/soul/edit.js'),
  ),
  entry(
    ['soul', 'set'],
    'agents',
    "Replace an agent's soul.md from a file or stdin",
    () => import('./commands/soul/set.js'),
  ),
  entry(['classic', 'list'], 'agents', 'List classic agents', () => import('./commands/classic/list.js')),
  entry(['classic', 'get'], 'agents', 'Show a classic agent', () => import('./commands/classic/get.js')),
  entry(['classic', 'update'], 'agents', 'Update a classic agent', () => import('./commands/classic/update.js')),
  entry(['chat'], 'chat', 'Talk to an agent: one message, or the interactive REPL', () => import('./commands/chat.js')),
  entry(
    ['assistant'],
    'chat',
    'The market-intelligence assistant REPL (on a terminal)',
    () => import('./commands/assistant/repl.js'),
  ),
  entry(
    ['assistant', 'ask'],
    'chat',
    'Ask the market-intelligence assistant one question',
    () => import('./commands/assistant/ask.js'),
  ),
  entry(
    ['export'],
    'fleet',
    'Write your agents as superagents.yaml and soul files, for git',
    () => import('./commands/export.js'),
  ),
  entry(
    ['plan'],
    'fleet',
    "Preview apply's changes (exit 9 with --detailed-exit-code)",
    () => import('./commands/plan.js'),
  ),
  entry(['apply'], 'fleet', 'Make the service match superagents.yaml', () => import('./commands/apply.js')),
  entry(
    ['schema'],
    'fleet',
    'Print the JSON Schema of superagents.yaml, for editors',
    () => import('./commands/schema.js'),
  ),
  entry(
    ['login'],
    'configuration',
    'Store an API key for a service, checked first',
    () => import('./commands/login.js'),
  ),
  entry(['logout'], 'configuration', "Forget the active profile's key", () => import('./commands/logout.js')),
  entry(
    ['whoami'],
    'configuration',
    'Show the service, profile, masked key and whether it works',
    () => import('./commands/whoami.js'),
  ),
  entry(
    ['config', 'list'],
    'configuration',
    'Show every profile and setting',
    () => import('./commands/config/list.js'),
  ),
  entry(['config', 'get'], 'configuration', 'Print one setting', () => import('./commands/config/get.js')),
  entry(['config', 'set'], 'configuration', 'Change one setting', () => import('./commands/config/set.js')),
  entry(['config', 'unset'], 'configuration', 'Remove one setting', () => import('./commands/config/unset.js')),
  entry(
    ['config', 'path'],
    'configuration',
    'Print where the config file lives',
    () => import('./commands/config/path.js'),
  ),
  entry(
    ['completion'],
    'configuration',
    'Print the shell completion script (bash, zsh or fish)',
    () => import('./commands/completion.js'),
  ),
  entry(
    ['server'],
    'service',
    'Run the embedded SuperAgents service in the foreground',
    () => import('./commands/server.js'),
  ),
  entry(
    ['__complete'],
    'configuration',
    'Print completion candidates for the shell scripts (agent names and ids, skills)',
    () => import('./commands/complete.js'),
    {
      hidden: true,
    },
  ),
  entry(['version'], 'configuration', 'Print the version (also --version)', () => import('./commands/version.js'), {
    hidden: true,
  }),
];

/**
 * Words other CLIs use, and the commands of ours they may have meant: suggested, never run (a
 * destructive verb is no alias). `version` is a (hidden) command of its own.
 */
export const HABITS: Readonly<Record<string, readonly string[]>> = {
  delete: ['destroy'],
  rm: ['destroy'],
  remove: ['destroy'],
  stop: ['pause'],
  start: ['resume'],
  status: ['get', 'health', 'list'],
};

/** The commands a person sees: everything but the hidden helpers. */
export const VISIBLE_ENTRIES: readonly Entry[] = ENTRIES.filter((e) => !e.hidden);
