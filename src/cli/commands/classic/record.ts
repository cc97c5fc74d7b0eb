// What `classic get` and `classic update` share: finding the agent (uuid, id prefix or name)
// and how one classic agent record is shown.
import type { ApiClient } from '../../../api/client.js';
import { classic } from '../../../api/classic.js';
import { NotFoundError } from '../../../api/errors.js';
import { CLASSIC_AGENTS, agentRefArg, matchAgent } from '../shared/agent-ref.js';
import type { ClassicRecord } from '../../../api/types.js';
import { UUID_PATTERN } from '../../../contract.js';
import { printFields, timeFor, yesNo } from '../../../ui/format.js';
import type { Printer } from '../../../ui/printer.js';
import { NoMatchError } from '../../../core/errors.js';

/**
 * A classic agent as the user names it, like a SuperAgent: its uuid (no request), a unique id
 * prefix of 4+ characters, or its exact name (one list call).
 */
export async function resolveClassic(client: ApiClient, ref: string | undefined): Promise<string> {
  const given = agentRefArg(ref);
  if (UUID_PATTERN.test(given)) return given.toLowerCase();
  const agents = await classic.list(client, CLASSIC_LOOKUP_LIMIT);
  return matchAgent(
    given,
    agents.map((a) => ({ agent_id: a.id, name: a.name ?? '', status: a.enabled ? 'enabled' : 'disabled' })),
    CLASSIC_AGENTS,
  ).agent_id;
}

/** How many classic agents a name or prefix is looked up among. */
const CLASSIC_LOOKUP_LIMIT = 100;

/** Runs a call on one classic agent, turning the service's 404 into a message that names the id. */
export async function onClassic<T>(id: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new NoMatchError(`no classic agent with id ${id}`, "see 'superagent classic list'");
    }
    throw err;
  }
}

function describeTrigger(trigger: unknown): string {
  const t = (trigger ?? {}) as Record<string, unknown>;
  if (t.type === 'scheduled') return `scheduled (${String(t.cron)})`;
  if (t.type === 'alpha') return `alpha "${String(t.match)}" (impact ≥ ${String(t.min_impact_rating ?? 3)})`;
  return JSON.stringify(trigger);
}

/** Long texts (goal, instructions) may span lines: indented under their value on a terminal, `\n` piped (tsvRow). */
function multiline(p: Printer, text: string, indent: number): string {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  return lines.join(p.stdoutIsTTY ? `\n${' '.repeat(indent)}` : '\n');
}

export function printClassic(p: Printer, r: ClassicRecord): void {
  const data = r.data ?? {};
  const flag = (v: unknown) => (typeof v === 'boolean' ? yesNo(p, v) : undefined);
  const fields: Array<[string, string | undefined]> = [
    ['Name', r.name],
    ['ID', r.id],
    ['Enabled', flag(r.enabled)],
    ['Description', r.description || undefined],
    ['Goal', data.goal],
    ['Instructions', data.instructions],
    ['Triggers', r.triggers ? (r.triggers.length ? r.triggers.map(describeTrigger).join('; ') : 'none') : undefined],
    ['Model', typeof data.model === 'string' ? data.model : undefined],
    ['Memory', flag(data.memory_enabled)],
    ['Trading', flag(data.trading_enabled)],
    ['Created', r.created_at ? timeFor(p, r.created_at) : undefined],
    ['Updated', r.updated_at ? timeFor(p, r.updated_at) : undefined],
  ];
  // printFields pads the shown labels to the longest one, plus ':' and two spaces
  const indent = Math.max(...fields.filter(([, v]) => v !== undefined).map(([k]) => k.length)) + 1 + 2;
  printFields(
    p,
    fields.map(([k, v]) => [
      k,
      v !== undefined && (k === 'Goal' || k === 'Instructions') ? multiline(p, v, indent) : v,
    ]),
  );
}
