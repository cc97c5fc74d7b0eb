// The module of each command in the registry, loaded only when that command runs.
import type { Entry } from './registry.js';
import type { CommandModule } from './spec.js';

const LOADERS: Record<string, () => Promise<CommandModule>> = {
  'launch': () => import('./commands/launch.js'),
  'list': () => import('./commands/list.js'),
  'get': () => import('./commands/get.js'),
  'pause': () => import('./commands/pause.js'),
  'resume': () => import('./commands/resume.js'),
  'restart': () => import('./commands/restart.js'),
  'destroy': () => import('./commands/destroy.js'),
  'update': () => import('./commands/update.js'),
  'model': () => import('./commands/model.js'),
  'memory': () => import('./commands/memory.js'),
  'skills': () => import('./commands/skills/list.js'),
  'skills enable': () => import('./commands/skills/enable.js'),
  'skills disable': () => import('./commands/skills/disable.js'),
  'wallet': () => import('./commands/wallet.js'),
  'health': () => import('./commands/health.js'),
  'soul show': () => import('./commands/soul/show.js'),
  'soul edit': () => import('./commands/soul/edit.js'),
  'soul set': () => import('./commands/soul/set.js'),
  'chat': () => import('./commands/chat.js'),
  'assistant': () => import('./commands/assistant/repl.js'),
  'assistant ask': () => import('./commands/assistant/ask.js'),
  'classic list': () => import('./commands/classic/list.js'),
  'classic get': () => import('./commands/classic/get.js'),
  'classic update': () => import('./commands/classic/update.js'),
  'login': () => import('./commands/login.js'),
  'logout': () => import('./commands/logout.js'),
  'whoami': () => import('./commands/whoami.js'),
  'config list': () => import('./commands/config/list.js'),
  'config get': () => import('./commands/config/get.js'),
  'config set': () => import('./commands/config/set.js'),
  'config unset': () => import('./commands/config/unset.js'),
  'config path': () => import('./commands/config/path.js'),
  'completion': () => import('./commands/completion.js'),
  'server': () => import('./commands/server.js'),
  '__complete': () => import('./commands/complete.js'),
};

export function loadCommand(entry: Entry): Promise<CommandModule> {
  const load = LOADERS[entry.path.join(' ')];
  if (!load) throw new Error(`no module for the command '${entry.path.join(' ')}'`);
  return load();
}

/** Names of every command that has a module (a test checks they match the registry). */
export const COMMAND_MODULES = Object.keys(LOADERS);
