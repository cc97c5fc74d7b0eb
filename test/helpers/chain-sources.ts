// The public money sources on loopback (chain-standin.ts), one server per call, closed after each test,
// with the readers' HTTP layer (createSourceHttp) to reach them.
import { afterEach } from 'vitest';
import { createSourceHttp, type SourceHttp } from '../../src/api/money/source-http.js';
import { startChainStandIn, type ChainStandIn } from './chain-standin.js';

export { fixture, type Override } from './chain-standin.js';

export const SOLANA_OWNER = 'vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg';
export const EVM_OWNER = '0x56687bf447db6ffa42ffe2204a05edaa20f55839';

export interface ChainSources extends ChainStandIn {
  http: SourceHttp;
}

/** Call once at the top of a test file; each call of the returned function starts one server. */
export function chainSourcesHarness(): (options?: { timeoutMs?: number }) => Promise<ChainSources> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return async (options = {}) => {
    const standIn = await startChainStandIn();
    const sourceHttp = createSourceHttp({ timeoutMs: options.timeoutMs ?? 5_000 });
    cleanups.push(async () => {
      sourceHttp.close();
      await standIn.close();
    });
    return { ...standIn, http: sourceHttp };
  };
}
