// /v1/agents: classic agents (contract §8).
import type { ApiClient } from './client.js';
import { unwrapList } from './lists.js';
import type { ClassicPatch, ClassicRecord } from './types.js';

const one = (id: string) => `/v1/agents/${encodeURIComponent(id)}`;

export const classic = {
  list: async (c: ApiClient, limit?: number) => {
    const body = await c.json<unknown>({ method: 'GET', path: `/v1/agents${limit ? `?limit=${limit}` : ''}` });
    return unwrapList(body, ['agents', 'data'], 'classic agent list') as ClassicRecord[];
  },
  get: (c: ApiClient, id: string) => c.json<ClassicRecord>({ method: 'GET', path: one(id) }),
  update: (c: ApiClient, id: string, patch: ClassicPatch) => c.json<ClassicRecord>({ method: 'PATCH', path: one(id), body: patch }),
};
