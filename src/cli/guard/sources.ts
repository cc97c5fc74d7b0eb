// Which sources guard's rules read are switched off (a variable or profile setting saying `off`). A
// switched-off source is not read, so never counted as $0: a rule none of whose sources can be read is
// refused before the first check (it could never fire), and the wallet total leaves the others out.
import { SOURCES, type SourceName } from '../../api/money/types.js';
import { UsageError } from '../../core/errors.js';
import type { Context } from '../context.js';
import { endpointOrigin, endpointSetting, endpointVariable } from '../commands/shared/money.js';
import { switchedOff } from '../commands/shared/money-off.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Rules } from './rules.js';

/** How to switch a source on again, where it was switched off. */
function switchOn(ctx: Context, api: OpenedApi, source: SourceName): string {
  return endpointOrigin(ctx.env, api.connection.profile, source) === 'variable'
    ? `unset ${endpointVariable(source)}`
    : `superagent config unset ${endpointSetting(source)}`;
}

/**
 * The sources switched off among those --min-value reads (every one), after refusing the rules that
 * could never be read: --max-drawdown and --max-loss with Hyperliquid off, --min-value with all off.
 */
export function sourcesOff(ctx: Context, api: OpenedApi, rules: Rules): SourceName[] {
  const off = switchedOff(ctx, api);
  const hl = [rules['max-drawdown'] !== undefined && '--max-drawdown', rules['max-loss'] !== undefined && '--max-loss'];
  const flags = hl.filter((x): x is string => Boolean(x));
  if (off.has('hyperliquid') && flags.length > 0) {
    throw new UsageError(
      `${flags.join(' and ')} ${flags.length > 1 ? 'read' : 'reads'} Hyperliquid, which is switched off`,
      switchOn(ctx, api, 'hyperliquid'),
    );
  }
  if (rules['min-value'] !== undefined && SOURCES.every((s) => off.has(s))) {
    throw new UsageError(
      '--min-value reads the wallet total, and every source is switched off',
      `switch one on: ${switchOn(ctx, api, 'hyperliquid')}, say`,
    );
  }
  return rules['min-value'] === undefined ? [] : SOURCES.filter((s) => off.has(s));
}
