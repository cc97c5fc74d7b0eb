// Which chain sources this command was told not to read (a variable or profile setting saying `off`):
// destroy and pause read nothing, not even the wallet's addresses, when every source they need is off.
import type { SourceName } from '../../../api/money/types.js';
import type { Context } from '../../context.js';
import { readAgentMoney, resolveEndpoints } from './money.js';
import type { OpenedApi } from './opened-api.js';

export { readAgentMoney };

export function switchedOff(ctx: Context, api: OpenedApi): Set<SourceName> {
  // only which are null matters here: the default endpoint of a chain is never off
  const endpoints = resolveEndpoints(ctx.env, api.connection.profile, null, () => 'default');
  return new Set((Object.keys(endpoints) as SourceName[]).filter((s) => endpoints[s] === null));
}
