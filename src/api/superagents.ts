// /v1/superagents: one thin call per route (contract §7).
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

import { BadAnswerError } from '../core/errors.js';
import { unwrapList } from './lists.js';

const base = '/v1/superagents';

/** Extra fields are fine (§7); an answer that is not an agent record at all is the service's fault. */
function asRecord(body: unknown): AgentRecord {
  if (!body || typeof body !== 'object' || typeof (body as AgentRecord).agent_id !== 'string') {
    throw new BadAnswerError('the service answered with something that is not an agent record', 'check the base URL points at a SuperAgents service');
  }
  return body as AgentRecord;
}
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** The list answer: a bare array, or one wrapped in `agents`, `superagents` or `data` (§7). */
export function listFrom(body: unknown): AgentRecord[] {
  return unwrapList(body, ['agents', 'superagents', 'data'], 'agent list').map(asRecord);
}

export const superagents = {
  list: async (c: ApiClient) => listFrom(await c.json({ method: 'GET', path: base })),
  get: async (c: ApiClient, id: string) => asRecord(await c.json<unknown>({ method: 'GET', path: one(id) })),
  launch: (c: ApiClient, body: LaunchBody) =>
    c.json<LaunchResult>({
      method: 'POST',
      path: base,
      body,
      afterUncertainPost: "run 'superagent list' to see whether the agent was launched before trying again",
    }),
  destroy: (c: ApiClient, id: string) => c.json<StatusResult>({ method: 'DELETE', path: one(id) }),
  pause: (c: ApiClient, id: string) => c.json<StatusResult>({ method: 'POST', path: `${one(id)}/pause` }),
  resume: (c: ApiClient, id: string) => c.json<StatusResult>({ method: 'POST', path: `${one(id)}/resume` }),
  restart: (c: ApiClient, id: string) => c.json<StatusResult>({ method: 'POST', path: `${one(id)}/restart` }),
  updateProfile: (c: ApiClient, id: string, body: { name?: string; description?: string }) =>
    c.json<StatusResult>({ method: 'PUT', path: `${one(id)}/profile`, body }),
  updateSoul: (c: ApiClient, id: string, soulMd: string) => c.json<StatusResult>({ method: 'PUT', path: `${one(id)}/soul`, body: { soul_md: soulMd } }),
  updateModel: (c: ApiClient, id: string, body: { model: string; model_provider: string }) =>
    c.json<StatusResult>({ method: 'PUT', path: `${one(id)}/model`, body }),
  skills: (c: ApiClient, id: string) => c.json<SkillsResult>({ method: 'GET', path: `${one(id)}/skills` }),
  /** the whole set of disabled skills; every other one is enabled (contract §7) */
  setDisabledSkills: (c: ApiClient, id: string, disabled: string[]) =>
    c.json<StatusResult>({ method: 'PUT', path: `${one(id)}/skills`, body: { disabled } }),
  files: (c: ApiClient, id: string) => c.json<FilesResult>({ method: 'GET', path: `${one(id)}/files` }),
  wallet: (c: ApiClient, id: string) => c.json<WalletResult>({ method: 'GET', path: `${one(id)}/wallet` }),
  health: (c: ApiClient, id: string) => c.json<HealthResult>({ method: 'GET', path: `${one(id)}/health` }),
};
