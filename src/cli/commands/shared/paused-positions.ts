// After a pause (the kill switch included): what the paused agents left open on the markets, read
// only once every pause was sent, so that no read slows one. A paused agent does not manage what it
// left open, so its owner is told; a read that fails is one line and changes no exit code.
import type { HoldingsResult } from '../../../api/money/holdings.js';
import type { SourceName } from '../../../api/money/types.js';
import type { Context } from '../../context.js';
import { readAgentMoney, switchedOff } from './money-off.js';
import { ourCommand } from './command-line.js';
import { withStop } from './stop.js';

/** Sources where an agent keeps positions and orders. */
const MARKETS: ReadonlySet<SourceName> = new Set<SourceName>(['hyperliquid', 'polymarket']);

export interface OpenAtPause {
  agent_id: string;
  name: string;
  /** null when it could not be read */
  open_positions: number | null;
  /** resting orders on Hyperliquid; null when not read */
  open_orders: number | null;
  /** "1 open position (ETH long 1.0) and 2 open orders on Hyperliquid", or null when nothing is open */
  phrase: string | null;
  failure?: string;
}

const NOT_READ = { open_positions: null, open_orders: null };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function openPhrase(m: HoldingsResult): string | null {
  const parts: string[] = [];
  const hl = m.hyperliquid;
  if (hl && (hl.positions.length > 0 || hl.open_orders.length > 0)) {
    const each = hl.positions.map((p) => `${p.coin} ${p.side} ${p.size}`).join(', ');
    const hlParts = [
      hl.positions.length > 0 ? `${plural(hl.positions.length, 'open position')} (${each})` : '',
      hl.open_orders.length > 0 ? plural(hl.open_orders.length, 'open order') : '',
    ].filter(Boolean);
    parts.push(`${hlParts.join(' and ')} on Hyperliquid`);
  }
  const pm = m.polymarket?.positions.length ?? 0;
  if (pm > 0) parts.push(plural(pm, 'open position') + ' on Polymarket');
  return parts.length > 0 ? parts.join(' and ') : null;
}

async function readOne(
  ctx: Context,
  agent: { agent_id: string; name: string },
  signal: AbortSignal,
): Promise<OpenAtPause> {
  const api = await ctx.api();
  // nothing to read where positions are kept: not known, and nothing to say
  if ([...MARKETS].every((m) => switchedOff(ctx, api).has(m))) return { ...agent, ...NOT_READ, phrase: null };
  try {
    const m = await readAgentMoney(ctx, api, agent, { signal, only: [...MARKETS] });
    const failed = m.errors.find((e) => MARKETS.has(e.source));
    if (failed) return { ...agent, ...NOT_READ, phrase: null, failure: `${failed.source}: ${failed.message}` };
    const count = (m.hyperliquid?.positions.length ?? 0) + (m.polymarket?.positions.length ?? 0);
    const orders = m.hyperliquid?.open_orders.length ?? 0;
    return { ...agent, open_positions: count, open_orders: orders, phrase: openPhrase(m) };
  } catch (err) {
    if (signal.aborted) throw err;
    return { ...agent, ...NOT_READ, phrase: null, failure: err instanceof Error ? err.message : String(err) };
  }
}

/** Reads every paused agent side by side (Ctrl-C gives up the reads; the pauses are already done). */
export function readOpenAtPause(ctx: Context, agents: Array<{ agent_id: string; name: string }>) {
  return withStop(ctx, (stop) => stop.race(Promise.all(agents.map((a) => readOne(ctx, a, stop.signal)))));
}

/** One line per agent with something open, then one line for every read that failed. */
export function sayOpenAtPause(ctx: Context, read: OpenAtPause[]): void {
  const p = ctx.printer;
  for (const r of read) {
    if (!r.phrase) continue;
    // what to do about it: see them, or let the agent manage them again
    const see = ourCommand(ctx, 'positions', r.name);
    const what = `${see} shows them; ${ourCommand(ctx, 'resume', r.name)} hands them back`;
    p.stderrWrite(`${r.name} is paused with ${r.phrase}: a paused agent does not manage them (${what})\n`);
  }
  const failed = read.filter((r) => r.failure !== undefined);
  if (failed.length > 0) {
    const names = failed.map((r) => r.name).join(', ');
    p.stderrWrite(`Open positions not read for ${names} (${failed[0]!.failure}); the pause itself is done\n`);
  }
}
