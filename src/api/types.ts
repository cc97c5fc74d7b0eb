// Wire types (docs/api.md, Endpoints). The client reads them leniently: extra fields are ignored.

export type AgentStatus = 'running' | 'paused' | 'destroyed' | (string & {});

/**
 * The hosted record (`SuperAgentSummary`) carries only agent_id, name, description, status, model
 * and created_at, the last three nullable; the rest may be missing (docs/api.md, Records and field rules).
 */
export interface AgentRecord {
  agent_id: string;
  name: string;
  description?: string | null;
  status?: AgentStatus;
  model?: string | null;
  model_provider?: string;
  created_at?: string | null;
  bot_username?: string | null;
  wallet_address?: string | null;
}

export interface LaunchBody {
  name: string;
  /** both required by the hosted service (docs/api.md, Endpoints) */
  model: string;
  model_provider: string;
  soul_md?: string;
  description?: string;
  telegram_bot_token?: string;
}

/** Checked by superagents.ts: only the id is sure to be there. */
export interface LaunchResult {
  agent_id: string;
  name?: string;
  bot_username?: string | null;
  wallet_address?: string | null;
  status?: AgentStatus;
}

/** Either field may be missing (the PUTs give no schema for their answer). */
export interface StatusResult {
  agent_id?: string;
  status?: AgentStatus;
}

/** `enabled` not sent: the service did not say, shown as unknown. */
export interface Skill {
  name: string;
  description?: string;
  enabled?: boolean;
}

export interface SkillsResult {
  agent_id?: string;
  skills: Skill[];
}

export interface FilesResult {
  agent_id?: string;
  soul_md: string;
  memory_md: string;
}

/** Either address may be null on the hosted service (its `SuperAgentWallet` schema). */
export interface WalletResult {
  evm_address?: string | null;
  solana_address?: string | null;
}

export interface HealthResult {
  agent_id?: string;
  healthy: boolean;
}

export interface ChatResult {
  session_id: string;
  content: string;
  timestamp?: string;
}

/** Checked by classic.ts: only the id is sure to be there. */
export interface ClassicRecord {
  id: string;
  user_id?: string;
  name?: string;
  description?: string | null;
  data?: { goal?: string; instructions?: string; [k: string]: unknown };
  triggers?: unknown[];
  enabled?: boolean;
  stats?: Record<string, unknown> | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface ClassicPatch {
  name?: string;
  description?: string;
  goal?: string;
  instructions?: string;
}
