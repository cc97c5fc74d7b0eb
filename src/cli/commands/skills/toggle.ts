// `skills enable` and `skills disable`. The service takes the whole set of disabled skills (docs/api.md,
// Records and field rules), so: read the list (a typo fails here naming the valid skills, before any
// write), send the new disabled set (nothing when nothing would change), then read again to confirm it
// took effect.
import { superagents } from '../../../api/superagents.js';
import type { Skill } from '../../../api/types.js';
import { tsvRow } from '../../../ui/format.js';
import { resolveAgent, type AgentRef } from '../shared/agent-ref.js';
import type { Context } from '../../context.js';
import { BadAnswerError, UsageError } from '../../../core/errors.js';
import { didYouMean } from '../../../core/suggest.js';

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
    const names = available.map((s) => s.name);
    const guess = unknown.length === 1 ? didYouMean(unknown[0]!.trim(), names) : undefined;
    throw new UsageError(
      `unknown skill${unknown.length > 1 ? 's' : ''} ${list} for ${agentLabel}`,
      `${guess ? `${guess} ` : ''}available: ${names.join(', ')}`,
    );
  }
  return [...new Set(wanted.map((w) => byName.get(w.trim().toLowerCase())!))];
}

/** The disabled set after turning `names` on (`enabled`) or off: every other skill keeps its state. */
export function disabledAfter(skills: Skill[], names: string[], enabled: boolean): string[] {
  const disabled = new Set(skills.filter((s) => !s.enabled).map((s) => s.name));
  for (const name of names) {
    if (enabled) disabled.delete(name);
    else disabled.add(name);
  }
  return skills.map((s) => s.name).filter((name) => disabled.has(name));
}

/** `known`: the agent already found (the REPL's), so it is neither looked up again nor shown by its id. */
export async function runSkillsToggle(
  enabled: boolean,
  [ref, ...wanted]: string[],
  ctx: Context,
  known?: AgentRef,
): Promise<void> {
  const verb = enabled ? 'enable' : 'disable';
  if (wanted.length === 0)
    throw new UsageError(
      `name at least one skill to ${verb}`,
      `see 'superagent skills ${ref ?? '<agent>'}' for the list`,
    );
  const { client } = await ctx.api();
  const agent = known ?? (await resolveAgent(client, ref!));
  const label = agent.name ?? ref!;
  const before = (await superagents.skills(client, agent.agent_id)).skills;
  const names = pickSkills(wanted, before, label);
  // the whole disabled set is sent: a skill whose state is unknown would be switched by guesswork
  const unsure = before.filter((s) => s.enabled === undefined && !names.includes(s.name)).map((s) => s.name);
  if (unsure.length > 0) {
    throw new BadAnswerError(
      `the service did not say whether ${unsure.join(', ')} ` +
        `${unsure.length > 1 ? 'are' : 'is'} enabled on ${label}; nothing was changed`,
      `check with 'superagent skills ${agent.agent_id}'`,
    );
  }
  const wasOn = new Map(before.map((s) => [s.name, s.enabled]));
  const changes = names.some((name) => wasOn.get(name) !== enabled);
  const after = changes
    ? await applyDisabled(ctx, agent.agent_id, disabledAfter(before, names, enabled))
    : { agent_id: agent.agent_id, skills: before };
  const isOn = new Map(after.skills.map((s) => [s.name, s.enabled]));
  const notApplied = names.filter((name) => isOn.get(name) !== enabled);
  const p = ctx.printer;
  if (p.json) p.printJson(after);
  else {
    for (const name of names) {
      const state = isOn.get(name) ?? !enabled;
      if (!p.stdoutIsTTY) p.data(tsvRow([name, onOff(state)]));
      else if (state !== enabled) p.data(`${p.out.red('✗')} ${name} is still ${onOff(state)} on ${label}`);
      else if (wasOn.get(name) === enabled) p.data(`${p.out.green('✓')} ${name} was already ${verb}d on ${label}`);
      else p.data(`${p.out.green('✓')} ${enabled ? 'Enabled' : 'Disabled'} ${name} on ${label}`);
    }
  }
  if (notApplied.length > 0) {
    throw new BadAnswerError(
      `the service accepted the change but ${notApplied.join(', ')} ` +
        `${notApplied.length > 1 ? 'are' : 'is'} still ${onOff(!enabled)} on ${label}`,
      `check with 'superagent skills ${agent.agent_id}' and try again`,
    );
  }
}

/** Sends the whole disabled set, then reads the list back (what the service reports, not what was asked). */
export async function applyDisabled(ctx: Context, agentId: string, disabled: string[]) {
  const { client } = await ctx.api();
  await superagents.setDisabledSkills(client, agentId, disabled);
  const after = await superagents.skills(client, agentId);
  return { agent_id: after.agent_id ?? agentId, skills: after.skills };
}
