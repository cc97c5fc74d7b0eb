// `superagent pause <agent>…`
import type { Context } from '../context.js';
import { runLifecycle } from '../lifecycle.js';
import type { CommandSpec, Options } from '../spec.js';

export const spec: CommandSpec = {
  name: 'pause',
  summary: 'Pause agents (pause --all is the kill switch)',
  description:
    'Pause agents: they stop processing and the container stays alive. Several agents at once; --all pauses every running ' +
    'agent (the kill switch): already paused counts as done, one line per agent, non-zero if any failed.',
  args: [{ name: 'agent', description: 'agents to pause (uuid, id prefix or name)', variadic: true, complete: 'agent' }],
  options: [{ flags: '--all', description: 'pause every running agent (the kill switch); already paused counts as done' }],
  examples: ['superagent pause demo', 'superagent pause --all'],
};

export function run(args: string[], opts: Options, ctx: Context): Promise<number> {
  return runLifecycle('pause', args, opts.all === true, ctx);
}
