// The simulated chains, outside /v1 and without a key (they stand for public sources): EVM and
// Solana JSON-RPC, Hyperliquid's /info and Polymarket's data API, each in its public shape.
import { ApiError, notFound, sendJson } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { evmMethods } from '../sim/evm.js';
import { info, INFO_TYPES, type InfoType } from '../sim/hyperliquid.js';
import { answerRpcBody } from '../sim/jsonrpc.js';
import { pmPositions, pmValue } from '../sim/polymarket.js';
import { solanaMethods } from '../sim/solana.js';
import { isEvmChain } from '../sim/tokens.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

async function evm(ctx: RouteContext): Promise<void> {
  const chain = ctx.params.chain!;
  if (!isEvmChain(chain)) throw notFound('Chain');
  sendJson(ctx.res, 200, answerRpcBody(ctx.batch ?? ctx.body, evmMethods(ctx.service.sim, chain)));
}

async function solana(ctx: RouteContext): Promise<void> {
  sendJson(ctx.res, 200, answerRpcBody(ctx.batch ?? ctx.body, solanaMethods(ctx.service.sim)));
}

/** Hyperliquid refuses a body it cannot read as one of its requests with 422. */
const undecodable = () => new ApiError(422, 'Failed to deserialize the JSON body into the target type');

async function hyperliquid(ctx: RouteContext): Promise<void> {
  const { type, user } = ctx.body;
  if (typeof type !== 'string' || !(INFO_TYPES as readonly string[]).includes(type)) throw undecodable();
  if (type !== 'allMids' && (typeof user !== 'string' || !EVM_ADDRESS.test(user))) throw undecodable();
  sendJson(ctx.res, 200, await info(ctx.service.sim, type as InfoType, typeof user === 'string' ? user : ''));
}

function polymarketUser(ctx: RouteContext): string {
  const user = ctx.query.get('user');
  if (!user || !EVM_ADDRESS.test(user)) throw new ApiError(400, 'user must be a 0x address');
  return user.toLowerCase();
}

// an agent's paper Polymarket account, brought to now; any other address answers as an empty one
async function positions(ctx: RouteContext): Promise<void> {
  const user = polymarketUser(ctx);
  const { sim } = ctx.service;
  const view = await sim.paper(user);
  sendJson(ctx.res, 200, pmPositions(sim.seed, user, view?.polymarket, view?.step ?? sim.step()));
}

async function value(ctx: RouteContext): Promise<void> {
  const user = polymarketUser(ctx);
  const { sim } = ctx.service;
  const view = await sim.paper(user);
  sendJson(ctx.res, 200, pmValue(sim.seed, user, view?.polymarket, view?.step ?? sim.step()));
}

export const simRoutes: Route[] = [
  { method: 'POST', path: '/sim/evm/:chain', handler: evm, public: true, batches: true },
  { method: 'POST', path: '/sim/solana', handler: solana, public: true, batches: true },
  { method: 'POST', path: '/sim/hyperliquid/info', handler: hyperliquid, public: true },
  { method: 'GET', path: '/sim/polymarket/positions', handler: positions, public: true },
  { method: 'GET', path: '/sim/polymarket/value', handler: value, public: true },
];
