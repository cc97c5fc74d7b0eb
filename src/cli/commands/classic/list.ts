// `superagent classic list`: classic agents, newest first.
import { classic } from '../../../api/classic.js';
import { orUnknown, printTable, timeFor, unknown, yesNo } from '../../../ui/format.js';
import type { Context } from '../../context.js';
import { parseInteger } from '../shared/numbers.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'List classic agents (goal + instructions + triggers), newest ' +
    'first. On a terminal a table; piped, one tab-separated ' +
    'line per agent (id, name, enabled, updated).',
  options: {
    limit: { type: 'string', value: 'n', description: 'at most N agents, 1 to 100 (the service default is 50)' },
  },
  examples: ['superagent classic list', 'superagent classic list --limit 10', 'superagent classic list | cut -f1'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const limit = input.limit === undefined ? undefined : parseInteger('--limit', input.limit, { min: 1, max: 100 });
  const { client } = await ctx.api();
  show(await classic.list(client, limit), ctx);
  // shown, then said to be incomplete (exit 2) if the service left a record out
  ctx.requireEveryRecord();
}

function show(agents: Awaited<ReturnType<typeof classic.list>>, ctx: Context): void {
  const p = ctx.printer;
  if (p.json) return p.printJson(agents);
  if (agents.length === 0) {
    p.status('No classic agents yet.');
    return;
  }
  printTable(
    p,
    ['ID', 'NAME', 'ENABLED', 'UPDATED'],
    agents.map((a) => [
      a.id,
      orUnknown(p, a.name),
      a.enabled === undefined ? unknown(p) : yesNo(p, a.enabled),
      timeFor(p, a.updated_at ?? a.created_at ?? undefined),
    ]),
    { fixed: [0, 2, 3] },
  );
}
