// `skills enable` and `skills disable`: one PUT that turns the named skills on or off, after checking
// the names against the agent's list so a typo fails naming the valid skills and changes nothing.
import { superagents } from '../api/superagents.js';
import type { Skill } from '../api/types.js';
import { resolveAgent } from './agent-ref.js';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/** The word for a skill's state in piped output (`name<TAB>on|off`), the same in every skills command. */
export function onOff(enabled: boolean): 'on' | 'off' {
  return enabled ? 'on' : 'off';
}

/**
 * The service's spelling of each wanted skill (matched case-insensitively, duplicates dropped).
 * Throws a usage error naming the unknown ones and the valid ones.
 */
export function pickSkills(wanted: string[], available: Skill[], agentLabel: string): string[] {
  const byName = new Map(available.map((s) => [s.name.toLowerCase(), s.name]));
  const unknown = wanted.filter((w) => !byName.has(w.trim().toLowerCase()));
  if (unknown.length > 0) {
    const list = unknown.map((u) => `'${u}'`).join(', ');
    throw new UsageError(
      `unknown skill${unknown.length > 1 ? 's' : ''} ${list} for ${agentLabel}`,
      `available: ${available.map((s) => s.name).join(', ')}`,
    );
  }
  return [...new Set(wanted.map((w) => byName.get(w.trim().toLowerCase())!))];
}

export async function runSkillsToggle(enabled: boolean, [ref, ...wanted]: string[], ctx: Context): Promise<void> {
  const verb = enabled ? 'enable' : 'disable';
  if (wanted.length === 0) throw new UsageError(`name at least one skill to ${verb}`, `see 'superagent skills ${ref ?? '<agent>'}' for the list`);
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const label = agent.name ?? ref!;
  const before = await superagents.skills(client, agent.agent_id);
  const names = pickSkills(wanted, before.skills ?? [], label);
  const after = await superagents.setSkills(client, agent.agent_id, names.map((name) => ({ name, enabled })));
  const p = ctx.printer;
  if (p.json) return p.printJson(after);

  const wasOn = new Map((before.skills ?? []).map((s) => [s.name, s.enabled]));
  const isOn = new Map((after.skills ?? []).map((s) => [s.name, s.enabled]));
  for (const name of names) {
    // the state the service reports, not the one asked for
    const state = isOn.get(name) ?? enabled;
    if (!p.stdoutIsTTY) {
      p.data(`${name}\t${onOff(state)}`);
    } else if (state !== enabled) {
      p.data(`${p.out.red('✗')} ${name} is still ${onOff(state)} on ${label}`);
    } else if (wasOn.get(name) === enabled) {
      p.data(`${p.out.green('✓')} ${name} was already ${verb}d on ${label}`);
    } else {
      p.data(`${p.out.green('✓')} ${enabled ? 'Enabled' : 'Disabled'} ${name} on ${label}`);
    }
  }
}
