// Which chain sources this command was told not to read (a variable or profile setting saying `off`):
// wallet and positions say them in one line; destroy and pause read nothing, not even the wallet's
// addresses, when every source they need is off.
import { EVM_CHAINS, SOURCES, type SourceName } from '../../../api/money/types.js';
import type { Context } from '../../context.js';
import { endpointSetting, endpointVariable, readAgentMoney, resolveEndpoints } from './money.js';
import type { OpenedApi } from './opened-api.js';

export { readAgentMoney };

export function switchedOff(ctx: Context, api: OpenedApi): Set<SourceName> {
  // only which are null matters here: the default endpoint of a chain is never off
  const endpoints = resolveEndpoints(ctx.env, api.connection.profile, null, () => 'default');
  return new Set((Object.keys(endpoints) as SourceName[]).filter((s) => endpoints[s] === null));
}

/** The settings that switch these sources on again: "rpc.<chain>, hyperliquid_url or polymarket_url". */
function settingsText(sources: readonly SourceName[]): string {
  const chain = (s: SourceName) => s === 'solana' || (EVM_CHAINS as readonly string[]).includes(s);
  const names = [...new Set(sources.map((s) => (chain(s) ? 'rpc.<chain>' : endpointSetting(s))))];
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names.join('');
}

/**
 * Says in one line on stderr which of the sources the command reads (`among`) are switched off, if
 * any: an empty answer must not pass for one read whole. `nothing`: what was not read when every one
 * is off ("no balance"); `whole`: what leaves the others out ("the total"). Returns those switched off.
 */
export function sayOff(
  ctx: Context,
  api: OpenedApi,
  among: readonly SourceName[],
  words: { nothing: string; whole: string },
): SourceName[] {
  const all = switchedOff(ctx, api);
  const off = among.filter((s) => all.has(s));
  if (off.length === 0) return off;
  if (off.length < among.length) {
    ctx.printer.warn(
      `not read, switched off: ${off.join(', ')} (${words.whole} leaves ${off.length > 1 ? 'them' : 'it'} out)`,
    );
    return off;
  }
  const which = among.length === SOURCES.length ? 'every source is' : `${among.join(' and ')} are`;
  ctx.printer.warn(
    `${words.nothing} was read: ${which} switched off (to switch one on, unset the variable saying off, ` +
      `${endpointVariable(among[0]!)} say, or run superagent config unset ${settingsText(among)})`,
  );
  return off;
}
