// /v1/agents: classic agents (docs/api.md, Endpoints), each answer checked against its hosted-openapi shape.
import type { ApiClient } from './client.js';
import { unwrapList } from './lists.js';
import { may, mayBeNull, need, shaped, type Shape } from './shape.js';
import type { ClassicPatch, ClassicRecord } from './types.js';

const one = (id: string) => `/v1/agents/${encodeURIComponent(id)}`;

/** `AgentResponse` / `AgentDetailResponse`; of `data` (free-form) only what `classic get` shows. */
const RECORD: Shape = {
  id: need('string'),
  user_id: may('string'),
  name: may('string'),
  description: mayBeNull('string'),
  data: may('object', {
    goal: may('string'),
    instructions: may('string'),
    model: may('string'),
    memory_enabled: may('boolean'),
    trading_enabled: may('boolean'),
  }),
  triggers: may('list'),
  enabled: may('boolean'),
  stats: mayBeNull('object'),
  created_at: mayBeNull('string'),
  updated_at: mayBeNull('string'),
};

const record = async (call: Promise<unknown>) => shaped<ClassicRecord>(await call, RECORD);

export const classic = {
  list: async (c: ApiClient, limit?: number) => {
    const body = await c.json<unknown>({ method: 'GET', path: `/v1/agents${limit ? `?limit=${limit}` : ''}` });
    return unwrapList(body, ['agents', 'data'], 'classic agent list').map((item, i) =>
      shaped<ClassicRecord>(item, RECORD, `[${i}]`),
    );
  },
  get: (c: ApiClient, id: string) => record(c.json({ method: 'GET', path: one(id) })),
  update: (c: ApiClient, id: string, patch: ClassicPatch) =>
    record(c.json({ method: 'PATCH', path: one(id), body: patch })),
};
