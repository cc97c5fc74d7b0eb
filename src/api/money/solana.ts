// SOL and SPL token balances of a Solana address, read with @solana/kit over our own HTTP layer (a custom
// RpcTransport calling `json`), so the proxy variables, the time-out and the size limit apply to it too.
import type { RpcTransport } from '@solana/kit';
import { BadAnswerError, SuperagentError } from '../../core/errors.js';
import { formatUnits, isZero, add, parseDecimal } from './decimal.js';
import { once, record } from './shape.js';
import { hostOf } from './source-http.js';
import type { Holding, JsonRequest } from './types.js';

export const SPL_TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

/** The mints we name and price: dollar stablecoins, priced at 1. */
export const SOLANA_TOKENS: Readonly<Record<string, { asset: string; priceKey: string | null }>> = {
  EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v: { asset: 'USDC', priceKey: 'USD' },
  Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB: { asset: 'USDT', priceKey: 'USD' },
};

const LAMPORTS_DECIMALS = 9;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** A mint we do not know, shown short: "DezX…B263". */
export const shortMint = (mint: string): string => `${mint.slice(0, 4)}…${mint.slice(-4)}`;

/** The node's own error, said here: kit drops its words for codes it knows and fails on ones it does not. */
function rpcError(answer: unknown, host: string): BadAnswerError | null {
  if (answer === null || typeof answer !== 'object' || !('error' in answer)) return null;
  const error = (answer as { error: unknown }).error as { code?: unknown; message?: unknown } | null;
  const code = typeof error?.code === 'number' ? ` ${error.code}` : '';
  const said = typeof error?.message === 'string' ? `: ${error.message.slice(0, 120)}` : '';
  return new BadAnswerError(`${host} answered with error${code}${said}`.replace(/[^\x20-\x7e]+/g, ' '));
}

function transportTo(url: string, json: JsonRequest): RpcTransport {
  const host = hostOf(url);
  const transport = async ({ payload, signal }: { payload: unknown; signal?: AbortSignal }) => {
    const answer = await json({ url, method: 'POST', body: payload, signal });
    const failed = rpcError(answer, host);
    if (failed) throw failed;
    return answer;
  };
  return transport as RpcTransport;
}

/** Kit's own errors (a malformed envelope, say) in one line naming the host; ours pass as they are. */
function oneLine(err: unknown, host: string): unknown {
  if (err instanceof SuperagentError || (err instanceof Error && err.name === 'AbortError')) return err;
  return new BadAnswerError(`${host} sent an answer that could not be read`);
}

function lamportsOf(value: unknown, host: string): string {
  const raw = typeof value === 'bigint' ? value : typeof value === 'number' ? value : null;
  // JSON numbers past 2^53 have lost digits before we see them: refuse rather than show a wrong balance
  if (raw === null || (typeof raw === 'number' && !Number.isSafeInteger(raw)) || raw < 0 || raw > 2n ** 53n) {
    throw new BadAnswerError(`${host}: the SOL balance is not a whole number of lamports we can read exactly`);
  }
  return formatUnits(BigInt(raw), LAMPORTS_DECIMALS);
}

/** One parsed token account: its mint and its amount as an exact decimal string. */
function tokenAccount(entry: unknown, host: string): { pubkey: string; mint: string; amount: string } {
  const what = `${host}: a token account`;
  const pubkey = record(entry, what).pubkey;
  if (typeof pubkey !== 'string' || !BASE58.test(pubkey))
    throw new BadAnswerError(`${what}'s pubkey is not an address`);
  const account = record(record(entry, what).account, what);
  const parsed = record(record(account.data, `${what}'s data (not jsonParsed)`).parsed, `${what}'s parsed data`);
  const info = record(parsed.info, `${what}'s info`);
  const mint = info.mint;
  if (typeof mint !== 'string' || !BASE58.test(mint)) throw new BadAnswerError(`${what}'s mint is not an address`);
  const tokenAmount = record(info.tokenAmount, `${what}'s tokenAmount`);
  const raw = parseDecimal(tokenAmount.amount, `${what}'s amount`);
  if (raw.includes('.') || raw.startsWith('-')) {
    throw new BadAnswerError(`${what}'s amount is not a whole count of units`);
  }
  const decimals = typeof tokenAmount.decimals === 'bigint' ? Number(tokenAmount.decimals) : tokenAmount.decimals;
  if (typeof decimals !== 'number') throw new BadAnswerError(`${what}'s decimals are missing`);
  return { pubkey, mint, amount: formatUnits(BigInt(raw), decimals) };
}

/** SOL (always, even 0) and every non-empty SPL token account, amounts summed per mint. */
export async function readSolana(
  url: string,
  owner: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<Holding[]> {
  const host = hostOf(url);
  const { address, createSolanaRpcFromTransport } = await import('../../vendor/solana-kit.js');
  let who;
  try {
    who = address(owner);
  } catch {
    throw new BadAnswerError(`the Solana address is not valid (${owner.slice(0, 12)}…)`);
  }
  const rpc = createSolanaRpcFromTransport(transportTo(url, json));
  const accounts = (programId: string) =>
    rpc
      .getTokenAccountsByOwner(who, { programId: address(programId) }, { encoding: 'jsonParsed' })
      .send({ abortSignal: signal });
  let answers: [unknown, unknown, unknown];
  try {
    answers = await Promise.all([
      rpc.getBalance(who).send({ abortSignal: signal }),
      accounts(SPL_TOKEN_PROGRAM),
      accounts(TOKEN_2022_PROGRAM),
    ]);
  } catch (err) {
    throw oneLine(err, host);
  }
  const [balance, ...tokenLists] = answers;
  const holdings: Holding[] = [
    { chain: 'solana', asset: 'SOL', amount: lamportsOf(record(balance, host).value, host), priceKey: 'SOL' },
  ];
  const byMint = new Map<string, string>();
  // one account listed twice would be counted twice; several accounts of one mint are summed
  const listed = new Set<string>();
  for (const list of tokenLists) {
    const value = record(list, `${host}'s token accounts`).value;
    if (!Array.isArray(value)) throw new BadAnswerError(`${host}: the token accounts are not a list`);
    for (const entry of value) {
      const { pubkey, mint, amount } = tokenAccount(entry, host);
      once(listed, pubkey, `${host}'s token accounts`);
      byMint.set(mint, add(byMint.get(mint) ?? '0', amount));
    }
  }
  for (const [mint, amount] of byMint) {
    if (isZero(amount)) continue;
    const known = SOLANA_TOKENS[mint];
    const asset = known?.asset ?? shortMint(mint);
    holdings.push({ chain: 'solana', asset, amount, priceKey: known?.priceKey ?? null });
  }
  return holdings;
}
