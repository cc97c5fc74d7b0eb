// The JSON Schema of superagents.yaml: what `superagent schema` prints (for editors) and what `plan`
// and `apply` validate the file against (with ajv), so the two can never disagree.
import { LIMITS, NAME_INVISIBLES, PROVIDERS } from '../../contract.js';

export const FLEET_FILE = 'superagents.yaml';
export const STATUSES = ['running', 'paused'] as const;

/** C0, DEL and C1, as a class body: none belongs in one line of text. */
const LINE_CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
/** One line holding none of `refused` (a class body), nothing blank around it. */
const oneLine = (refused: string) => `^[^\\s${refused}]([^${refused}]*[^\\s${refused}])?$`;
/** No control character (escape sequences, line breaks) nor invisible one (U+202E…), nothing blank around it. */
const NAME_PATTERN = oneLine(LINE_CONTROLS + NAME_INVISIBLES);
const MODEL_PATTERN = oneLine(LINE_CONTROLS);
/** Tabs and line breaks are fine in a description; other control characters are not. */
const DESCRIPTION_PATTERN = '^[^\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]*$';
const TRIMMED = '^\\S(.*\\S)?$';
const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

/** What a `pattern` failure means, by the field it guards (ajv only says "must match pattern"). */
export const PATTERN_MEANING: Record<string, string> = {
  name:
    'must not contain control characters (escape sequences, tabs, line breaks), ' +
    'invisible or direction-changing ones (U+200B, U+202E) or start or end with a space',
  description: 'must not contain control characters other than tabs and line breaks',
  model: 'must not contain control characters or start or end with a space',
  soul: 'must not start or end with a space',
  bot_token_env:
    'must be the name of an environment variable (letters, digits and _, not ' +
    'starting with a digit): the token itself never goes in the file',
};

const skillList = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  uniqueItems: true,
};

export const FLEET_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'superagents.yaml',
  description:
    'A fleet of SuperAgents, compared with the service by `superagent plan` and applied by `superagent apply`.',
  type: 'object',
  required: ['agents'],
  additionalProperties: false,
  properties: {
    agents: {
      description:
        'The agents, matched with those on the service by name (names are unique). An agent ' +
        'on the service that is not here is destroyed only by `apply --prune`.',
      type: 'array',
      items: { $ref: '#/definitions/agent' },
    },
  },
  definitions: {
    agent: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      description:
        'One SuperAgent. A field left out is left as it is on the service (and as launch makes it for a new agent).',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: LIMITS.nameChars,
          pattern: NAME_PATTERN,
          description: 'Unique name; how the agent is matched with the service.',
        },
        description: { type: 'string', maxLength: LIMITS.descriptionChars, pattern: DESCRIPTION_PATTERN },
        model: {
          type: 'string',
          minLength: 1,
          maxLength: LIMITS.modelChars,
          pattern: MODEL_PATTERN,
          description: 'Model id as the provider spells it.',
        },
        provider: {
          enum: [...PROVIDERS],
          description:
            'Model provider; inferred from the model id when left out (gpt-… openai, ' +
            'claude-… anthropic, grok-… xai, vendor/model openrouter).',
        },
        soul: {
          type: 'string',
          minLength: 1,
          pattern: TRIMMED,
          description:
            "Path of the agent's soul.md, relative to this file: a regular file in " +
            "this file's directory or below it (after any symlink).",
        },
        skills: {
          description:
            'The skills, as a whole: either exactly those enabled (every ' +
            'other one disabled) or exactly those disabled.',
          type: 'object',
          minProperties: 1,
          maxProperties: 1,
          additionalProperties: false,
          properties: { enabled: skillList, disabled: skillList },
        },
        status: { enum: [...STATUSES] },
        bot_token_env: {
          type: 'string',
          pattern: ENV_NAME,
          description:
            'The environment variable holding the Telegram bot token, used at launch. Never the token itself.',
        },
      },
    },
  },
} as const;

/** The fields an agent may have, in the order export writes them. */
export const AGENT_FIELDS = Object.keys(FLEET_SCHEMA.definitions.agent.properties);
