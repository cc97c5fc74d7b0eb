// /v1/superagents: one thin call per route (docs/api.md, Endpoints), each answer checked against the shape
// hosted-openapi.json gives it (shape.ts) where it is read.
import type { ApiClient } from './client.js';
import type {
  AgentRecord,
  FilesResult,
  HealthResult,
  LaunchBody,
  LaunchResult,
  SkillsResult,
  StatusResult,
  WalletResult,
} from './types.js';

import { BadAnswerError, rephrased } from '../core/errors.js';
import { REACHED } from './connection-failure.js';
import { unwrapList } from './lists.js';
import type { TogetherOptions } from './together.js';
import { may, mayBeNull, need, shaped, type Shape } from './shape.js';

const base = '/v1/superagents';

/** `SuperAgentSummary`, and the fields the embedded service adds; the client needs the id. */
const RECORD: Shape = {
  agent_id: need('string'),
  name: may('string'),
  description: mayBeNull('string'),
  status: may('string'),
  model: mayBeNull('string'),
  model_provider: may('string'),
  created_at: mayBeNull('string'),
  bot_username: mayBeNull('string'),
  wallet_address: mayBeNull('string'),
};
/** `LaunchSuperagentResponse`: the new agent's id is what launch reports. */
const LAUNCHED: Shape = {
  agent_id: need('string'),
  name: may('string'),
  status: may('string'),
  bot_username: mayBeNull('string'),
  wallet_address: mayBeNull('string'),
};
/** `SuperAgentStatus`; the PUTs give no schema, but an answer that is no object is no answer. */
const STATUS: Shape = { agent_id: may('string'), status: may('string') };
/** The skills: a list of `SuperAgentSkill`, each named (the toggles send names back). */
const SKILLS: Shape = {
  agent_id: may('string'),
  skills: need('list', { name: need('string'), description: may('string'), enabled: may('boolean') }),
};
/** soul.md and memory.md: the commands that ask for them print them. */
const FILES: Shape = { agent_id: may('string'), soul_md: need('string'), memory_md: need('string') };
const WALLET: Shape = { evm_address: mayBeNull('string'), solana_address: mayBeNull('string') };
/** An answer that does not say whether the agent is healthy says nothing. */
const HEALTH: Shape = { agent_id: may('string'), healthy: need('boolean') };

const asRecord = (body: unknown, where = ''): AgentRecord => shaped<AgentRecord>(body, RECORD, where);
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** The list answer: a bare array, or one wrapped in `agents`, `superagents` or `data`. */
export function listFrom(body: unknown): AgentRecord[] {
  return unwrapList(body, ['agents', 'superagents', 'data'], 'agent list').map((item, i) =>
    asRecord(item, `agents[${i}]`),
  );
}

/** pause, resume or restart one agent */
const lifecycle = (c: ApiClient, id: string, action: string, o?: TogetherOptions) =>
  checked<StatusResult>(c.json({ method: 'POST', path: `${one(id)}/${action}`, ...o }), STATUS);

/**
 * A call whose answer has `shape`. `afterPost`: for a POST whose success answer has not, the service
 * took the request: said, with this advice (a launch may be done; another would launch a second agent).
 */
async function checked<T>(call: Promise<unknown>, shape: Shape, afterPost?: string): Promise<T> {
  const answer = await call;
  try {
    return shaped<T>(answer, shape);
  } catch (err) {
    if (afterPost === undefined || !(err instanceof BadAnswerError)) throw err;
    throw rephrased(err, `${err.message}${REACHED}`, afterPost);
  }
}

const AFTER_LAUNCH = "run 'superagent list' to see whether the agent was launched before trying again";

export const superagents = {
  list: async (c: ApiClient) => listFrom(await c.json({ method: 'GET', path: base })),
  get: async (c: ApiClient, id: string) => asRecord(await c.json<unknown>({ method: 'GET', path: one(id) })),
  launch: (c: ApiClient, body: LaunchBody) =>
    checked<LaunchResult>(
      c.json({ method: 'POST', path: base, body, afterUncertainPost: AFTER_LAUNCH }),
      LAUNCHED,
      AFTER_LAUNCH,
    ),
  destroy: (c: ApiClient, id: string) => checked<StatusResult>(c.json({ method: 'DELETE', path: one(id) }), STATUS),
  /** `o`: sent with others at once (together.ts), which waits out their 429s */
  pause: (c: ApiClient, id: string, o?: TogetherOptions) => lifecycle(c, id, 'pause', o),
  resume: (c: ApiClient, id: string, o?: TogetherOptions) => lifecycle(c, id, 'resume', o),
  restart: (c: ApiClient, id: string, o?: TogetherOptions) => lifecycle(c, id, 'restart', o),
  updateProfile: (c: ApiClient, id: string, body: { name?: string; description?: string }) =>
    checked<StatusResult>(c.json({ method: 'PUT', path: `${one(id)}/profile`, body }), STATUS),
  /** `o.signal`: cancels the call (soul edit's upload, on Ctrl-C or a hang-up) */
  updateSoul: (c: ApiClient, id: string, soulMd: string, o: { signal?: AbortSignal } = {}) =>
    checked<StatusResult>(
      c.json({ method: 'PUT', path: `${one(id)}/soul`, body: { soul_md: soulMd }, signal: o.signal }),
      STATUS,
    ),
  updateModel: (c: ApiClient, id: string, body: { model: string; model_provider: string }) =>
    checked<StatusResult>(c.json({ method: 'PUT', path: `${one(id)}/model`, body }), STATUS),
  /** `quiet`: no waiting spinner (a Tab completion: it would draw over the line being typed) */
  skills: (c: ApiClient, id: string, opts: { quiet?: boolean } = {}) =>
    checked<SkillsResult>(
      c.json({ method: 'GET', path: `${one(id)}/skills`, ...(opts.quiet ? { showWaiting: false } : {}) }),
      SKILLS,
    ),
  /** the whole set of disabled skills; every other one is enabled (docs/api.md, Records and field rules) */
  setDisabledSkills: (c: ApiClient, id: string, disabled: string[]) =>
    checked<StatusResult>(c.json({ method: 'PUT', path: `${one(id)}/skills`, body: { disabled } }), STATUS),
  files: (c: ApiClient, id: string, o: { signal?: AbortSignal } = {}) =>
    checked<FilesResult>(c.json({ method: 'GET', path: `${one(id)}/files`, signal: o.signal }), FILES),
  wallet: (c: ApiClient, id: string) =>
    checked<WalletResult>(c.json({ method: 'GET', path: `${one(id)}/wallet` }), WALLET),
  health: (c: ApiClient, id: string) =>
    checked<HealthResult>(c.json({ method: 'GET', path: `${one(id)}/health` }), HEALTH),
};
