// Several calls at once (the kill switch: a pause for every agent), each settled on its own. Sent one
// after the other, each waiting out its own 429, ten pauses asked to wait 20 s took minutes; here
// they go out together, and those a 429 refused wait once, as long as the longest Retry-After among
// them asks, then go again together, within the command's budget of waiting (the client's).
import type { ApiClient, RequestOptions } from './client.js';
import { RateLimitError } from './errors.js';
import { AT_ONCE } from './transport.js';

/** What a call passes on to its request: 429s are the caller's (this module's) to wait out. */
export type TogetherOptions = Required<Pick<RequestOptions, 'waitOnRateLimit'>>;

type Settled<T> = Array<PromiseSettledResult<T>>;

async function inBatches<T>(calls: Array<() => Promise<T>>): Promise<Settled<T>> {
  const out: Settled<T> = [];
  for (let i = 0; i < calls.length; i += AT_ONCE) {
    out.push(...(await Promise.allSettled(calls.slice(i, i + AT_ONCE).map((call) => call()))));
  }
  return out;
}

/** The refusal asking for the longest wait. */
function longest(refusals: RateLimitError[]): RateLimitError {
  return refusals.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a));
}

/** Runs every call, in batches of AT_ONCE; the results in the calls' order. */
export async function together<T>(
  client: ApiClient,
  calls: Array<(o: TogetherOptions) => Promise<T>>,
  signal?: AbortSignal,
): Promise<Settled<T>> {
  const results: Settled<T> = [];
  let pending = calls.map((_, i) => i);
  for (let round = 0; pending.length > 0; round++) {
    const settled = await inBatches(pending.map((i) => () => calls[i]!({ waitOnRateLimit: false })));
    const refused: number[] = [];
    const refusals: RateLimitError[] = [];
    settled.forEach((result, k) => {
      results[pending[k]!] = result;
      if (result.status === 'rejected' && result.reason instanceof RateLimitError) {
        refused.push(pending[k]!);
        refusals.push(result.reason);
      }
    });
    if (refused.length === 0) break;
    try {
      await client.waitOutRateLimit(longest(refusals), round, signal);
    } catch (reason) {
      if (!(reason instanceof RateLimitError)) throw reason; // Ctrl-C during the wait ends the command
      for (const i of refused) results[i] = { status: 'rejected', reason };
      break;
    }
    pending = refused;
  }
  return results;
}
