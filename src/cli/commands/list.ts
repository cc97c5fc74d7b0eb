// `superagent list` (`ls`): every live agent, newest first.
import { superagents } from '../../api/superagents.js';
import { orUnknown, printTable, statusWord, timeFor, unknown } from '../../ui/format.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'List your agents, newest first. On a terminal a table; piped, one ' +
    'tab-separated line per agent (id, name, status, model, created); ' +
    '--json prints the API\'s answer, { "agents": [ … ] }.',
  examples: ['superagent list', 'superagent list --json | jq -r ".agents[].agent_id"', 'superagent ls | cut -f1'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const { client } = await ctx.api();
  show(await superagents.list(client), ctx);
  // the list is shown, then said to be incomplete (exit 2) if the service left a record out
  ctx.requireEveryRecord();
}

function show(agents: Awaited<ReturnType<typeof superagents.list>>, ctx: Context): void {
  const p = ctx.printer;
  if (p.json) return p.printJson({ agents });
  if (agents.length === 0) {
    p.status("No agents yet. Launch one with 'superagent launch --name NAME'.");
    return;
  }
  if (p.stdoutIsTTY) {
    printTable(
      p,
      ['NAME', 'ID', 'STATUS', 'MODEL', 'CREATED'],
      agents.map((a) => [
        orUnknown(p, a.name),
        a.agent_id.slice(0, 8),
        a.status === undefined ? unknown(p) : statusWord(p, a.status),
        a.model ?? '',
        timeFor(p, a.created_at ?? undefined),
      ]),
      // the id is what commands take, so it is never left out: the status goes last
      { fixed: [1, 2, 4], last: [3], drop: [4, 3, 2] },
    );
    return;
  }
  printTable(
    p,
    [],
    agents.map((a) => [a.agent_id, a.name ?? '', a.status ?? '', a.model ?? '', a.created_at ?? '']),
  );
}
