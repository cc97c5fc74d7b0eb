// A one-off snapshot of the fleet, as `top --once` or piped prints it: JSON, tab-separated rows, or the
// view's lines once on a terminal. A figure not read is null (JSON) or `none` (rows), its reason said.
import { tsvRow } from '../../ui/format.js';
import { cents } from '../commands/shared/money-view.js';
import type { Context } from '../context.js';
import type { AgentFigures, Snapshot } from './feed.js';
import type { Figure } from './figure.js';
import { fleetLines } from './view.js';

type StaleFields = Partial<Record<'healthy' | 'value_usd' | 'pnl_24h_usd' | 'open_positions', string>>;

const valueOf = <T>(f: Figure<T>): T | null => (f.stale === null ? f.value : null);

/** Why each figure of the agent is missing (or, for the value, partial); none: nothing to say. */
function staleOf(a: AgentFigures): StaleFields {
  const out: StaleFields = {};
  const say = (key: keyof StaleFields, f: Figure<unknown>) => {
    if (f.stale !== null) out[key] = f.stale;
    else if (f.value === null) out[key] = 'not read';
  };
  say('healthy', a.healthy);
  say('value_usd', a.value);
  if (!out.value_usd && a.partial.length > 0) out.value_usd = `partial: ${a.partial.join(', ')} not read`;
  say('pnl_24h_usd', a.pnl24h);
  say('open_positions', a.open);
  return out;
}

export function snapshotJson(s: Snapshot) {
  return {
    agents: s.agents.map((a) => {
      const stale = staleOf(a);
      return {
        agent_id: a.agent_id,
        name: a.name,
        status: a.status,
        healthy: valueOf(a.healthy),
        value_usd: valueOf(a.value),
        pnl_24h_usd: valueOf(a.pnl24h),
        open_positions: valueOf(a.open),
        ...(Object.keys(stale).length > 0 ? { stale } : {}),
      };
    }),
  };
}

/** Prints the snapshot as the output mode asks; the stale figures' reasons on stderr (rows and screen). */
export function printSnapshot(ctx: Context, s: Snapshot, budget: number): void {
  const p = ctx.printer;
  if (p.json) return p.printJson(snapshotJson(s));
  if (p.stdoutIsTTY) {
    const lines = fleetLines({
      snapshot: s,
      width: p.columns,
      selected: -1,
      now: ctx.clock.now(),
      budget,
      colour: p.out,
    });
    for (const line of lines) p.data(line);
    return;
  }
  const none = (v: number | boolean | null, show: (x: never) => string) => (v === null ? 'none' : show(v as never));
  for (const a of snapshotJson(s).agents) {
    p.data(
      tsvRow([
        a.agent_id,
        a.name,
        a.status ?? '',
        none(a.healthy, (h: boolean) => (h ? 'healthy' : 'unhealthy')),
        none(a.value_usd, cents),
        none(a.pnl_24h_usd, cents),
        none(a.open_positions, String),
      ]),
    );
    const stale = Object.entries(a.stale ?? {});
    if (stale.length > 0) p.stderrWrite(`${a.name}: ${stale.map(([k, why]) => `${k} ${why}`).join('; ')}\n`);
  }
}
