// What a reply needs to know of the agent that gives it (replies.ts, plans.ts, intents.ts).
export interface AgentForReply {
  agent_id: string;
  name: string;
  description: string;
  model: string;
  model_provider: string;
  soul_md: string;
  skills: Record<string, boolean>;
}
