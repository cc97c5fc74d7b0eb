// Wire constants shared by the client and the embedded service (docs/api.md).
// Kept in one place so a difference found in the hosted service is a one-line change.

export const PROVIDERS = ['openai', 'anthropic', 'xai', 'openrouter', 'venice'] as const;
export type Provider = (typeof PROVIDERS)[number];

export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}

/** [ours] launch without `model` gets this one. */
export const DEFAULT_MODEL = 'claude-sonnet-4-20250514';
export const DEFAULT_PROVIDER: Provider = 'anthropic';

/** [ours] a provider sent without a model gets its house model. */
export const DEFAULT_MODEL_BY_PROVIDER: Record<Provider, string> = {
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4-20250514',
  xai: 'grok-4',
  openrouter: 'anthropic/claude-sonnet-4',
  venice: 'llama-3.3-70b',
};

export const LIMITS = {
  /** [ours] request bodies above this answer 413 */
  bodyBytes: 1024 * 1024,
  nameChars: 100,
  descriptionChars: 500,
  /** [ours] soul.md, in UTF-8 bytes */
  soulBytes: 256 * 1024,
  /** [ours] one chat or assistant message */
  messageChars: 32 * 1024,
  modelChars: 200,
  classicGoalChars: 2000,
  classicInstructionsChars: 20000,
  /** [ours] live agents per account */
  agentsPerAccount: 10,
  /** [spec] requests per minute per key */
  ratePerMinute: 60,
} as const;

/**
 * [ours] The most the client reads of one answer: a service that never stops sending is cut off there
 * (exit 7), not read until the memory runs out.
 */
export const ANSWER_LIMITS = {
  /** a JSON answer, whole, in bytes */
  jsonBytes: 16 * 1024 * 1024,
  /** one event of a stream (its lines until the blank one), in characters */
  eventChars: 4 * 1024 * 1024,
  /** objects and lists within each other: deeper, printing it (--json) would overflow the stack */
  jsonDepth: 512,
} as const;

/** [ours] `<digits>:<30+ chars of [A-Za-z0-9_-]>` */
export const BOT_TOKEN_PATTERN = /^\d+:[A-Za-z0-9_-]{30,}$/;

/**
 * [ours] What a name may not hold besides control characters: characters a terminal does not show
 * but that change what it shows (bidi overrides and isolates, zero-width and invisible format
 * characters, the BOM) and line or paragraph separators. As a regular-expression class body, so a
 * JSON Schema pattern can hold it too.
 */
export const NAME_INVISIBLES = '\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';
const NAME_INVISIBLE = new RegExp(`[${NAME_INVISIBLES}]`, 'u');

/** The first such character in `text` as `U+202E`, or undefined when there is none. */
export function invisibleIn(text: string): string | undefined {
  const found = NAME_INVISIBLE.exec(text)?.[0];
  return found && `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * [ours] The form in which two agent names are compared: names are how people refer to agents, so
 * names that look the same are one name. NFKC makes one form of `é` typed as one character or as
 * `e` and a combining accent, and folds compatibility forms that read alike (full-width `ｄｅｍｏ`,
 * the ligature `ﬁ`, a no-break space); upper- then lower-casing folds case as Unicode's full case
 * folding does for names (`Straße` and `STRASSE`, `ς` and `σ`); runs of spaces count as one, and
 * surrounding spaces as none. Only the comparison uses it: a name is kept and shown as it was given.
 */
export function agentNameKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/**
 * [ours] Two agent names are one name when their agentNameKey is the same (`Demo`, ` demo `, `ｄｅｍｏ`):
 * the service keeps one live agent per name and account, and the CLI refuses such a name before
 * asking, finds an agent by any form of its name, and checks a fleet file's names by this rule.
 */
export function sameAgentName(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && agentNameKey(a) === agentNameKey(b);
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * [ours] On a list answer: how many records the service could not read and left out (an extension
 * header of `superagent server`; the CLI makes it the failure of a command that needs every record).
 */
export const LEFT_OUT_HEADER = 'x-superagent-left-out';

/** [ours] the embedded service's key format */
export const EMBEDDED_KEY_PREFIX = 'sa_sk_';

/** [hosted] the hosted service's keys, and its documented base URL (hosted-openapi.json `servers`) */
export const HOSTED_KEY_PREFIX = 'gb_sk_';
export const HOSTED_BASE_URL = 'https://api.gigabrain.gg';

/** [hosted / ours] the `event` field of the embedded service's data-only SSE lines: Agno's names
 * (docs/api.md, Streaming replies). */
export const SSE_EVENTS = {
  session: 'session_info',
  runStarted: 'RunStarted',
  toolStarted: 'ToolCallStarted',
  toolCompleted: 'ToolCallCompleted',
  /** a piece of an agent's reply */
  agentContent: 'RunContent',
  /** a piece of the assistant's reply */
  assistantContent: 'RunResponseContent',
  completed: 'RunCompleted',
  streamComplete: 'stream_complete',
  error: 'error',
} as const;
/** [hosted] the data of the very last SSE line: `data: [DONE]` */
export const SSE_DONE = '[DONE]';

/** [ours] classic agents (docs/api.md, Endpoints: Classic agents) */
/** The embedded service's simulated market scenarios: calm drifts, crash falls steadily (risk-guard demos). */
export const SIM_SCENARIOS = ['calm', 'crash'] as const;
export type SimScenario = (typeof SIM_SCENARIOS)[number];

export const CLASSIC_CRONS = ['*/5 * * * *', '*/15 * * * *', '0 * * * *', '0 */4 * * *', '0 0 * * *'] as const;
export const CLASSIC_DEFAULT_LIMIT = 50;
