// Polymarket's public data API: a user's open positions (GET <base>/positions?user=…) and their total
// value (GET <base>/value?user=…). Its numbers are JSON numbers; each goes through the one decimal check.
import { BadAnswerError } from '../../core/errors.js';
import { amount, decimal, list, record, text } from './shape.js';
import { hostOf } from './source-http.js';
import type { JsonRequest } from './types.js';

export interface PmPosition {
  title: string;
  outcome: string;
  /** shares held */
  size: string;
  avgPrice: string;
  curPrice: string;
  /** dollars */
  currentValue: string;
  cashPnl: string;
}

function urlOf(base: string, path: 'positions' | 'value', user: string): string {
  const url = new URL(`${base.replace(/\/+$/, '')}/${path}`);
  url.searchParams.set('user', user);
  return url.toString();
}

export async function readPmPositions(
  base: string,
  user: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<PmPosition[]> {
  const where = `${hostOf(base)} positions`;
  const answer = await json({ url: urlOf(base, 'positions', user), method: 'GET', signal });
  const seen = new Set<string>();
  return list(answer, where).map((entry) => {
    const p = record(entry, `${where}: a position`);
    const title = text(p.title, `${where}: a position's title`, 300);
    const at = `${where} "${title.slice(0, 40)}"`;
    const outcome = text(p.outcome, `${at} outcome`, 100);
    // a position sent twice would be counted twice: one outcome token (asset) of one market is one row
    const key = typeof p.asset === 'string' ? p.asset : `${String(p.conditionId ?? title)} ${outcome}`;
    if (seen.has(key)) throw new BadAnswerError(`${at} ${outcome.slice(0, 40)} is listed twice`);
    seen.add(key);
    return {
      title,
      outcome,
      size: amount(p.size, `${at} size`),
      avgPrice: amount(p.avgPrice, `${at} avgPrice`),
      curPrice: amount(p.curPrice, `${at} curPrice`),
      currentValue: amount(p.currentValue, `${at} currentValue`),
      cashPnl: decimal(p.cashPnl, `${at} cashPnl`),
    };
  });
}

/** The dollar value of the user's positions: the answer is a list of {user, value}, empty for a new user. */
export async function readPmValue(
  base: string,
  user: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<string> {
  const where = `${hostOf(base)} value`;
  const rows = list(await json({ url: urlOf(base, 'value', user), method: 'GET', signal }), where);
  if (rows.length > 1) throw new BadAnswerError(`${where} lists more than one user`);
  return rows.length === 0 ? '0' : amount(record(rows[0], `${where} row`).value, `${where} value`);
}
