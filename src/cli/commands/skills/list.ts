// `superagent skills <agent>`: every available skill and whether this agent has it on.
import { superagents } from '../../../api/superagents.js';
import type { Skill } from '../../../api/types.js';
import { printTable, unknown, yesNo } from '../../../ui/format.js';
import type { Printer } from '../../../ui/printer.js';
import { resolveAgent } from '../shared/agent-ref.js';
import { onOff } from './toggle.js';
import type { Context } from '../../context.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'List every skill available to an agent and whether it is enabled. On a ' +
    "terminal a table; piped, one 'name<TAB>on|off' line per skill. " +
    "Change them with 'superagent skills enable' and 'superagent skills disable'.",
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  examples: [
    'superagent skills demo',
    'superagent skills demo | awk \'$2 == "on" {print $1}\'',
    'superagent skills enable demo hyperliquid',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const { client } = await ctx.api();
  const { agent_id } = await resolveAgent(client, ref!);
  const result = await superagents.skills(client, agent_id);
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  const { skills } = result;
  if (p.stdoutIsTTY) return printSkillTable(p, skills);
  printTable(
    p,
    [],
    skills.map((s) => [s.name, s.enabled === undefined ? unknown(p) : onOff(s.enabled)]),
  );
}

function printSkillTable(p: Printer, skills: Skill[]): void {
  // the description gives up its width first: names and states are never cut
  const state = (s: Skill) => (s.enabled === undefined ? unknown(p) : yesNo(p, s.enabled, 'on', 'off'));
  // on a narrow terminal the description is left out rather than cut to a `…` of its own
  const rows = skills.map((s) => [s.name, state(s), s.description ?? '']);
  printTable(p, ['NAME', 'ENABLED', 'DESCRIPTION'], rows, { fixed: [0, 1], drop: [2] });
}
