// A plan for people (what `plan` prints and `apply` shows before it asks) and as data (`--json`).
// Only agents that would change are listed; a soul change is a unified diff. Either way a key or a
// bot token in it (a soul or a description may quote one; `plan` runs in CI logs) shows masked: the
// diff as every diff is (renderDiff), the rest of the plan here; apply sends the text as written.
import type { ChalkInstance } from 'chalk';
import { renderDiff, splitLines, unifiedDiff } from '../../ui/diff.js';
import { cellSafe } from '../../ui/format.js';
import { maskSecrets } from '../../ui/mask.js';
import { plain } from '../../ui/printer.js';
import { pending, type AgentPlan, type Change, type Plan } from './plan.js';
import { roomNote } from './room.js';

const short = (id: string | undefined) => (id ? ` (${id.slice(0, 8)})` : '');
const quoted = (s: string) => JSON.stringify(s);
const modelText = (m: { model: string | null; provider?: string }) =>
  `${m.model ?? 'none'}${m.provider ? ` (${m.provider})` : ''}`;

function skillsWanted(c: Extract<Change, { field: 'skills' }>): string {
  return 'enabled' in c.wanted
    ? `enabled ${c.wanted.enabled.join(', ') || 'none'} (every other one disabled)`
    : `disabled ${c.wanted.disabled.join(', ') || 'none'} (every other one enabled)`;
}

function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');
}

type Soul = Extract<Change, { field: 'soul' }>;
/** Each soul change's diff, rendered: made first, as jsdiff is loaded (src/ui/diff.ts) only by a plan with one. */
type Diffs = Map<Soul, string>;

async function soulDiffs(
  plan: Plan,
  labels: (a: AgentPlan, c: Soul) => { old: string; new: string },
  colour: ChalkInstance,
): Promise<Diffs> {
  const diffs: Diffs = new Map();
  for (const a of plan.agents) {
    for (const c of a.changes)
      if (c.field === 'soul') diffs.set(c, renderDiff(await unifiedDiff(c.from, c.to, labels(a, c)), colour));
  }
  return diffs;
}

function changeLines(a: AgentPlan, c: Change, diffs: Diffs): string[] {
  switch (c.field) {
    case 'name':
      return [`name: ${quoted(c.from)} → ${quoted(c.to)}`];
    case 'description':
      return [`description: ${quoted(c.from)} → ${quoted(c.to)}`];
    case 'model':
      return [`model: ${modelText(c.from)} → ${modelText(c.to)}`];
    case 'soul':
      return [`soul: ${c.path}`, indent(diffs.get(c)!.replace(/\n$/, ''), '  ')];
    case 'skills':
      if (a.action === 'create') return [`skills: ${skillsWanted(c)}`];
      return [
        'skills: ' +
          [
            c.enable.length ? `enable ${c.enable.join(', ')}` : '',
            c.disable.length ? `disable ${c.disable.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; '),
      ];
    case 'status':
      return [
        a.action === 'create'
          ? 'status: paused (paused after the launch)'
          : `status: ${c.from} → ${c.to} (${c.to === 'paused' ? 'pause' : 'resume'})`,
      ];
  }
}

function launchLines(a: AgentPlan): string[] {
  const l = a.launch!;
  const out = [`model: ${modelText(l)}`];
  if (l.description !== undefined) out.push(`description: ${quoted(l.description)}`);
  out.push(l.soul ? `soul: ${l.soul.path} (${splitLines(l.soul.text).length} lines)` : "soul: the service's default");
  // checked before the plan is shown (checkBotTokens): set and well-formed here
  if (l.bot_token_env) out.push(`bot token: from $${l.bot_token_env}`);
  return out;
}

function agentBlock(a: AgentPlan, colour: ChalkInstance, diffs: Diffs): string[] {
  const details = (lines: string[]) => lines.map((l) => indent(l));
  // a name from the service (one not in the file) may hold anything: it stays on its line
  const name = cellSafe(a.name);
  switch (a.action) {
    case 'none':
      return [];
    case 'create':
      return [
        `${colour.green('+')} ${name}: launch`,
        ...details([...launchLines(a), ...a.changes.flatMap((c) => changeLines(a, c, diffs))]),
      ];
    case 'update':
      return [
        `${colour.yellow('~')} ${name}${short(a.agent_id)}`,
        ...details(a.changes.flatMap((c) => changeLines(a, c, diffs))),
      ];
    case 'destroy':
      return [`${colour.red('-')} ${name}${short(a.agent_id)}: destroy (not in the file)`];
    case 'not-in-file':
      return [`${colour.dim('?')} ${name}${short(a.agent_id)}: not in the file; \`apply --prune\` would destroy it`];
  }
}

function count(plan: Plan, action: AgentPlan['action']): number {
  return plan.agents.filter((a) => a.action === action).length;
}

/** The last line: what would happen, in numbers. */
export function summary(plan: Plan): string {
  const outside = count(plan, 'not-in-file');
  const notIn = outside
    ? `; ${outside} agent${outside > 1 ? 's' : ''} on the service ${outside > 1 ? 'are' : 'is'} not in the file`
    : '';
  if (!pending(plan))
    return (
      `No changes: the service matches ${plan.file} (${count(plan, 'none')} ` +
      `agent${count(plan, 'none') === 1 ? '' : 's'})${notIn}.`
    );
  const parts = [
    [count(plan, 'create'), 'to launch'],
    [count(plan, 'update'), 'to change'],
    [count(plan, 'destroy'), 'to destroy'],
    [count(plan, 'none'), 'unchanged'],
  ] as const;
  return `Plan: ${parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`)
    .join(', ')}${notIn}.`;
}

/** The plan as text, one block per agent that would change, then the summary. */
export async function planText(plan: Plan, colour: ChalkInstance): Promise<string> {
  const diffs = await soulDiffs(plan, (a, c) => ({ old: `${a.name}/soul.md (on the service)`, new: c.path }), colour);
  const blocks = plan.agents.map((a) => agentBlock(a, colour, diffs)).filter((b) => b.length > 0);
  for (const a of plan.agents) {
    for (const note of a.notes) blocks.push([colour.dim(`note: ${cellSafe(a.name)}: ${cellSafe(note)}`)]);
  }
  const room = roomNote(plan);
  if (room) blocks.push([colour.dim(`note: ${room}`)]);
  return maskSecrets([...blocks.map((b) => b.join('\n')), summary(plan)].join('\n') + '\n');
}

function changeJson(c: Change, diffs: Diffs): Record<string, unknown> {
  switch (c.field) {
    case 'soul':
      return { field: 'soul', path: c.path, diff: diffs.get(c)! };
    case 'skills':
      return { field: 'skills', ...c.wanted, enable: c.enable, disable: c.disable };
    default:
      return { ...c };
  }
}

/** `value` with every string in it masked (masking the JSON text could cut across its quotes). */
function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  return value;
}

/** The plan as data (`--json`): every agent of the file and of the service, with its action. */
export async function planJson(plan: Plan): Promise<Record<string, unknown>> {
  const diffs = await soulDiffs(plan, (_, c) => ({ old: 'service', new: c.path }), plain);
  return masked({
    file: plan.file,
    changes_pending: pending(plan),
    prune: plan.prune,
    agents: plan.agents.map((a) => ({
      name: a.name,
      agent_id: a.agent_id ?? null,
      action: a.action,
      ...(a.launch
        ? {
            launch: {
              model: a.launch.model,
              provider: a.launch.provider,
              description: a.launch.description,
              soul: a.launch.soul?.path,
              bot_token_env: a.launch.bot_token_env,
            },
          }
        : {}),
      changes: a.changes.map((c) => changeJson(c, diffs)),
      notes: a.notes,
    })),
  }) as Record<string, unknown>;
}
