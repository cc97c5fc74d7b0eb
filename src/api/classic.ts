// /v1/agents: classic agents (contract §8).
import type { ApiClient } from './client.js';
import type { ClassicPatch, ClassicRecord } from './types.js';

const one = (id: string) => `/v1/agents/${encodeURIComponent(id)}`;

export const classic = {
  list: async (c: ApiClient, limit?: number) => {
    const body = await c.json<unknown>({ method: 'GET', path: `/v1/agents${limit ? `?limit=${limit}` : ''}` });
    if (Array.isArray(body)) return body as ClassicRecord[];
    const inner = (body as { agents?: unknown; data?: unknown } | null)?.agents ?? (body as { data?: unknown } | null)?.data;
    return Array.isArray(inner) ? (inner as ClassicRecord[]) : [];
  },
  get: (c: ApiClient, id: string) => c.json<ClassicRecord>({ method: 'GET', path: one(id) }),
  update: (c: ApiClient, id: string, patch: ClassicPatch) => c.json<ClassicRecord>({ method: 'PATCH', path: one(id), body: patch }),
};
